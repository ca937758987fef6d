import { islandRenderer } from './island-renderer-name';

/**
 * Astro finds the renderer of a component a page renders by asking each renderer whether the
 * component is its own, and React's answer is to render the component once, just to look; the
 * page then renders it again. React is this product's only framework, so every component a page
 * can render (the islands, the kit's components, the kit gallery's demos) names its renderer up
 * front with the tag Astro reads first (`Symbol.for('astro:renderer')`), and renders once per page
 * view (src/astro-adjustments/rendering/renderer-tag.in-astro.test.ts fails otherwise). Each such
 * module hands its exports here as it loads on the server
 * (src/astro-adjustments/build/tagged-components.mjs). The renderer named is React's, which also
 * lists the modules an island needs (`react-island-renderer.ts`).
 */
const rendererTag = Symbol.for('astro:renderer');

export { islandRenderer };

/** A component by React's naming rule: a function whose name starts with a capital. */
const isComponent = (value: unknown, name: string): value is object =>
  typeof value === 'function' && /^[A-Z]/u.test(name === 'default' ? value.name : name);

/**
 * Tags every component the modules export (default or named); returns them as `module#export`.
 * Tagging one twice (a module re-exporting another's) is harmless: the tag is the same.
 */
export function tagIslandRenderers(modules: Record<string, Record<string, unknown>>): string[] {
  const tagged: string[] = [];
  for (const [path, module] of Object.entries(modules)) {
    for (const [name, component] of Object.entries(module)) {
      if (!isComponent(component, name)) continue;
      if (!(rendererTag in component)) {
        Object.defineProperty(component, rendererTag, { value: islandRenderer });
      }
      tagged.push(`${path}#${name}`);
    }
  }
  return tagged;
}
