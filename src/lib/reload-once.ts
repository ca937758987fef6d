/**
 * A screen whose script fails to load reloads the page at its address: after a deploy, a page
 * opened before it asks for scripts that no longer exist; reloading brings the new ones. A page
 * reloads itself for that at most once per address in a while, so a script that fails every time
 * never makes it reload again and again.
 */

/** How long after reloading an address it is not reloaded again for the same reason. */
export const reloadPauseMs = 5 * 60 * 1000;

// Holds when, and to which address, the page last reloaded itself for a failed load.
const storageKey = 'portal:reloaded';

/**
 * The words browsers give a module that could not be fetched: Chromium's "Failed to fetch
 * dynamically imported module", Firefox's "error loading dynamically imported module", Safari's
 * "Importing a module script failed". One pattern rather than a list: this script is inline in
 * every page. (A failed preload of Vite's helper says so with its own event, below.)
 */
const failedLoad = /dynamically imported module|Importing a module script failed/;

/** Whether `reason` says a script could not be loaded. */
export function isFailedLoad(reason: unknown): boolean {
  return failedLoad.test(reason instanceof Error ? reason.message : String(reason));
}

interface ReloadSurroundings {
  readonly location: Pick<Location, 'href' | 'reload'>;
  readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  readonly now: number;
}

/**
 * Reloads the page, unless it already did so for this address within {@link reloadPauseMs}
 * (remembered for the tab, across the reload). True when it reloads.
 */
export function reloadOnce({ location, storage, now }: ReloadSurroundings): boolean {
  // Without storage there is no way to know whether this is the second time: never reload.
  if (!storage) return false;
  try {
    // Remembered as "<time> <address>".
    const [at, address] = (storage.getItem(storageKey) ?? '').split(/ (.*)/);
    if (address === location.href && now - Number(at) < reloadPauseMs) return false;
    storage.setItem(storageKey, `${now} ${location.href}`);
  } catch {
    return false;
  }
  location.reload();
  return true;
}

/**
 * A same-origin script element: the files a deploy replaces. (Styles are inline in every page,
 * and the module preloads Vite's helper adds report through its own event.)
 */
function isOwnScript(target: EventTarget | null, origin: string): boolean {
  return target instanceof HTMLScriptElement && new URL(target.src, origin).origin === origin;
}

/**
 * Watches the ways a page learns that one of its scripts could not be loaded: an island that
 * cannot hydrate, a lazy import's preload, a dynamic import nobody caught, a script element.
 */
export function reloadWhenScriptsFailToLoad(window: Window): void {
  const reload = (): void => {
    let storage: Storage | undefined;
    try {
      storage = window.sessionStorage;
    } catch {
      storage = undefined;
    }
    reloadOnce({ location: window.location, storage, now: Date.now() });
  };
  window.addEventListener('astro:hydration-error', (event) => {
    if (isFailedLoad((event as CustomEvent<{ error?: unknown }>).detail.error)) reload();
  });
  window.addEventListener('vite:preloadError', (event) => {
    event.preventDefault();
    reload();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isFailedLoad(event.reason)) reload();
  });
  window.addEventListener(
    'error',
    (event) => {
      if (isOwnScript(event.target, window.location.origin)) reload();
    },
    true,
  );
}
