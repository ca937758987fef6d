import type { NamedSSRLoadedRendererValue } from 'astro';
import { adjustingRenderedIslands } from './adjusting-rendered-islands';
import { reactClientEntrypoint } from './island-renderer-name';
import { modulesToPreload, preloadAttribute } from './island-modules';

/**
 * `renderer`, which also writes on each island it renders for hydration the modules that island
 * needs beyond its own (`preloadsFor`, by default
 * src/astro-adjustments/rendering/island-modules.ts), for its directive to ask for them all at
 * once.
 */
export function listingModulesToPreload(
  renderer: NamedSSRLoadedRendererValue,
  preloadsFor: (ownModules: readonly string[]) => readonly string[] = modulesToPreload,
): NamedSSRLoadedRendererValue {
  return adjustingRenderedIslands(renderer, async (rendered, page, metadata) => {
    if (!metadata?.hydrate || !metadata.componentUrl) return rendered;
    const ownModules = await Promise.all([
      page.result.resolve(decodeURI(metadata.componentUrl)),
      page.result.resolve(reactClientEntrypoint),
    ]);
    const preloads = preloadsFor(ownModules).join(' ');
    if (!preloads) return rendered;
    return { ...rendered, attrs: { ...rendered.attrs, [preloadAttribute]: preloads } };
  });
}
