import type { NamedSSRLoadedRendererValue } from 'astro';
import { reactClientEntrypoint } from './island-renderer-name';
import { modulesToPreload, preloadAttribute } from './island-modules';

/** What Astro gives a renderer as `this`: the page being rendered. */
interface RenderingPage {
  readonly result: { resolve(specifier: string): Promise<string> };
}

/**
 * `renderer`, which also writes on each island it renders for hydration the modules that island
 * needs beyond its own (`preloadsFor`, by default src/server/island-modules.ts), for its
 * directive to ask for them all at once.
 */
export function listingModulesToPreload(
  renderer: NamedSSRLoadedRendererValue,
  preloadsFor: (ownModules: readonly string[]) => readonly string[] = modulesToPreload,
): NamedSSRLoadedRendererValue {
  return {
    ...renderer,
    async renderToStaticMarkup(this: RenderingPage, Component, props, slots, metadata) {
      const rendered = await renderer.renderToStaticMarkup.call(
        this,
        Component,
        props,
        slots,
        metadata,
      );
      if (!metadata?.hydrate || !metadata.componentUrl) return rendered;
      const ownModules = await Promise.all([
        this.result.resolve(decodeURI(metadata.componentUrl)),
        this.result.resolve(reactClientEntrypoint),
      ]);
      const preloads = preloadsFor(ownModules).join(' ');
      if (!preloads) return rendered;
      return { ...rendered, attrs: { ...rendered.attrs, [preloadAttribute]: preloads } };
    },
  };
}
