import type { ClientDirective } from 'astro';
import { afterFirstPaint } from './after-first-paint';
import { preloadIslandModules } from './preload-island-modules';

/**
 * `client:paint`: the island hydrates once the page has painted. Its server-rendered form works
 * before that (every form posts without JavaScript), so the member loses nothing, and the page's
 * first paint waits for no script. Every module the island needs is asked for at that moment, at
 * once.
 */
const paintDirective: ClientDirective = (load, _options, island) => {
  afterFirstPaint(() => {
    preloadIslandModules(island);
    void load().then((hydrate) => hydrate());
  });
};

export default paintDirective;
