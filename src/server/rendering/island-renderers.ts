import { islandRenderer } from './island-renderer-name';

/**
 * Astro finds the renderer of an island by asking each renderer whether the component is its
 * own, and React's answer is to render the component once, just to look; the page then renders it
 * again. React is this product's only framework, so every island names its renderer up front with
 * the tag Astro reads first (`Symbol.for('astro:renderer')`), and renders once per page view. The
 * renderer named is React's, which also lists the modules the island needs
 * (src/server/rendering/react-island-renderer.ts).
 */
const rendererTag = Symbol.for('astro:renderer');

export { islandRenderer };

/** Every module a page hydrates: the islands, and the kit gallery's demos. */
const islandModules = import.meta.glob<{ default?: unknown }>(
  ['../../islands/*/*.tsx', '../../pages/kit/_gallery/*.tsx', '!**/*.test.tsx'],
  { eager: true },
);

/** Tags every island component; returns the ones it tagged, by module. */
export function tagIslandRenderers(
  modules: Record<string, { default?: unknown }> = islandModules,
): string[] {
  const tagged: string[] = [];
  for (const [path, module] of Object.entries(modules)) {
    const component = module.default;
    if (typeof component !== 'function') continue;
    Object.defineProperty(component, rendererTag, { value: islandRenderer });
    tagged.push(path);
  }
  return tagged;
}
