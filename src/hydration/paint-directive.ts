import type { ClientDirective } from 'astro';
import { afterFirstPaint } from './after-first-paint';

/**
 * `client:paint`: the island hydrates once the page has painted. Its server-rendered form works
 * before that (every form posts without JavaScript), so the member loses nothing, and the page's
 * first paint waits for no script (docs/PERFORMANCE.md).
 */
const paintDirective: ClientDirective = (load) => {
  afterFirstPaint(() => void load().then((hydrate) => hydrate()));
};

export default paintDirective;
