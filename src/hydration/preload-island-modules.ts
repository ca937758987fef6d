/**
 * Asks for every module the island needs beyond its own, all at once: the server lists them on the
 * island (`data-preload`, src/astro-adjustments/rendering/island-modules.ts). Without this the
 * browser finds each level of imports only once the level above has arrived, a round trip each.
 * Called when the island starts to hydrate, never before the first paint.
 *
 * Each is imported rather than linked as a module preload: the island imports them a moment later
 * anyway, the browser fetches each module once either way, and this is the shortest code, which
 * every page with an island carries inline. A module that fails to load is handled like the
 * island's own (src/lib/reload-once.ts).
 */
export function preloadIslandModules(island: HTMLElement): void {
  void island.dataset['preload']?.split(' ').map((module) => import(/* @vite-ignore */ module));
}
