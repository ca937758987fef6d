import type { Loader, LoaderContext } from 'astro/loaders';

type Watcher = NonNullable<LoaderContext['watcher']>;
type Listener = (path: string, ...rest: unknown[]) => unknown;

/**
 * How long a file must have been quiet before its loader reads it again under `astro dev`. It
 * outlasts the watcher's own 50 ms, within which it passes on the first change to a file and drops
 * the others: the content editor saves with `fs.writeFile`, which empties the file and then
 * writes it, and a loader that read on the first of those two changes kept the empty or half
 * file, and never heard of the rest.
 */
export const SETTLE_MS = 150;

/**
 * `loader`, told of a change to a file only once the file has been quiet for `settleMs`: under
 * `astro dev`, an editor's save then shows whole, however slow the machine. A build reads each file
 * once and has no watcher, so this changes nothing there.
 */
export function readWhenSaved(loader: Loader, settleMs = SETTLE_MS): Loader {
  return {
    ...loader,
    load: (context) =>
      loader.load(
        context.watcher
          ? { ...context, watcher: quietWatcher(context.watcher, settleMs) }
          : context,
      ),
  };
}

/** `watcher`, passing on `change` and `add` of a path only after no other for `settleMs`. */
export function quietWatcher(watcher: Watcher, settleMs: number): Watcher {
  const quiet: Watcher = new Proxy(watcher, {
    get(target, property) {
      if (property === 'on') {
        return (event: string, listener: Listener): Watcher => {
          const settled = event === 'change' || event === 'add';
          target.on(event, settled ? afterQuiet(listener, settleMs) : listener);
          // Chained, the next listener is added through this watcher too.
          return quiet;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return quiet;
}

function afterQuiet(listener: Listener, settleMs: number): Listener {
  const pending = new Map<string, NodeJS.Timeout>();
  return (path, ...rest) => {
    clearTimeout(pending.get(path));
    pending.set(
      path,
      setTimeout(() => {
        pending.delete(path);
        void listener(path, ...rest);
      }, settleMs),
    );
  };
}
