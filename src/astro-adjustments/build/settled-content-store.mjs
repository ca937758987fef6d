/**
 * Under `npm run dev`, Astro reads the content store (`.astro/data-store.json`) through a virtual
 * module, and when an editor's save rewrites the store it marks that module stale as a hot update.
 * Vite holds a plain invalidation against a read already under way (its result is not kept), but
 * not a hot update: a page rendered while the store was being rewritten could keep the old read,
 * and every page after it showed the old words until the server restarted. Once no request is
 * under way after the store is rewritten, this marks the module stale again, plainly, so that the
 * next page reads the store as it is.
 */
import path from 'node:path';

/** Astro's virtual module of the content store, as resolved (`astro/dist/content/consts.js`). */
export const contentStoreModuleId = '\0astro:data-layer-content';

/** The environments Astro renders pages in under `astro dev`. */
const renderingEnvironments = ['ssr', 'prerender'];

/**
 * Calls `then` once no request is under way: at once if none is, otherwise as the last ends.
 * Requests that start meanwhile are waited for too.
 */
export function requestsUnderWay() {
  let count = 0;
  /** @type {Array<() => void>} */
  let waiting = [];
  const settle = () => {
    if (count > 0) return;
    const callbacks = waiting;
    waiting = [];
    for (const callback of callbacks) callback();
  };
  return {
    started() {
      count += 1;
    },
    ended() {
      count -= 1;
      settle();
    },
    /** @param {() => void} then */
    whenNoneUnderWay(then) {
      waiting.push(then);
      settle();
    },
  };
}

/**
 * Marks the content store's module stale in every environment pages render in: in the module
 * graph (and through it every module importing it) and in the environment's module runner.
 *
 * @param {import('vite').ViteDevServer} server
 */
export function invalidateContentStore(server) {
  for (const name of renderingEnvironments) {
    const environment = server.environments[name];
    if (!environment) continue;
    const module = environment.moduleGraph.getModuleById(contentStoreModuleId);
    if (module) environment.moduleGraph.invalidateModule(module);
    // A runnable environment (Vite's `isRunnableDevEnvironment`) evaluates modules in this process.
    if ('runner' in environment) {
      const { evaluatedModules } = /** @type {import('vite').RunnableDevEnvironment} */ (
        environment
      ).runner;
      const evaluated = evaluatedModules.getModuleById(contentStoreModuleId);
      if (evaluated) evaluatedModules.invalidateModule(evaluated);
    }
  }
}

/** @returns {import('vite').Plugin} */
export function settledContentStore() {
  return {
    name: 'portal:settled-content-store',
    apply: 'serve',
    configureServer(server) {
      const storeFile = path.join(server.config.root, '.astro', 'data-store.json');
      const requests = requestsUnderWay();
      let invalidationDue = false;
      server.middlewares.use((_request, response, next) => {
        requests.started();
        response.once('close', () => requests.ended());
        next();
      });
      const onStoreWritten = (/** @type {string} */ file) => {
        if (file !== storeFile || invalidationDue) return;
        invalidationDue = true;
        requests.whenNoneUnderWay(() => {
          invalidationDue = false;
          invalidateContentStore(server);
        });
      };
      // Astro writes the store to a file beside it and renames it into place.
      server.watcher.on('add', onStoreWritten);
      server.watcher.on('change', onStoreWritten);
    },
  };
}
