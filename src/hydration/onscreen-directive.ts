import type { ClientDirective } from 'astro';
import { preloadIslandModules } from './preload-island-modules';

/**
 * `client:onscreen`: Astro's `client:visible`, which also asks for every module the island needs
 * at once when it comes into view (src/hydration/preload-island-modules.ts). For islands below
 * the fold, whose server-rendered forms work until then.
 */
const onscreenDirective: ClientDirective = (load, _options, island) => {
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    preloadIslandModules(island);
    void load().then((hydrate) => hydrate());
  });
  for (const child of island.children) observer.observe(child);
};

export default onscreenDirective;
