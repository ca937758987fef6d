import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Loader, LoaderContext } from 'astro/loaders';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, quietWatcher, readWhenSaved } from './saved-whole';

type Watcher = NonNullable<LoaderContext['watcher']>;

/** The watcher Astro hands a loader under `astro dev`, as far as a loader uses it. */
function fakeWatcher(): { watcher: Watcher; emitter: EventEmitter; added: string[] } {
  const added: string[] = [];
  const emitter = Object.assign(new EventEmitter(), {
    add: (path: string) => {
      added.push(path);
    },
  });
  return { watcher: emitter as unknown as Watcher, emitter, added };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a watcher that waits for a file to be quiet', () => {
  it('tells of a change only once the file has been quiet for the settling time', () => {
    vi.useFakeTimers();
    const { watcher, emitter } = fakeWatcher();
    const heard = vi.fn();
    quietWatcher(watcher, SETTLE_MS).on('change', heard);

    emitter.emit('change', '/site/offers.yaml');
    vi.advanceTimersByTime(SETTLE_MS - 1);
    emitter.emit('change', '/site/offers.yaml');
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(heard).not.toHaveBeenCalled();

    vi.advanceTimersByTime(1);
    expect(heard).toHaveBeenCalledOnce();
    expect(heard).toHaveBeenCalledWith('/site/offers.yaml');
  });

  it('waits for the file for a listener added in a chain as well', () => {
    vi.useFakeTimers();
    const { watcher, emitter } = fakeWatcher();
    const changed = vi.fn();
    const added = vi.fn();
    quietWatcher(watcher, SETTLE_MS).on('change', changed).on('add', added);

    emitter.emit('add', '/site/welcome/one.md');
    expect(added).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SETTLE_MS);
    expect(added).toHaveBeenCalledWith('/site/welcome/one.md');
  });

  it('waits for each file on its own', () => {
    vi.useFakeTimers();
    const { watcher, emitter } = fakeWatcher();
    const heard = vi.fn();
    quietWatcher(watcher, SETTLE_MS).on('add', heard);

    emitter.emit('add', '/site/welcome/one.md');
    vi.advanceTimersByTime(SETTLE_MS / 2);
    emitter.emit('add', '/site/welcome/two.md');
    vi.advanceTimersByTime(SETTLE_MS / 2);
    expect(heard.mock.calls).toEqual([['/site/welcome/one.md']]);
    vi.advanceTimersByTime(SETTLE_MS / 2);
    expect(heard.mock.calls).toEqual([['/site/welcome/one.md'], ['/site/welcome/two.md']]);
  });

  it('tells of a deleted file at once, and leaves the watcher’s other methods as they are', () => {
    const { watcher, emitter, added } = fakeWatcher();
    const heard = vi.fn();
    const quiet = quietWatcher(watcher, SETTLE_MS);
    quiet.on('unlink', heard);
    quiet.add('/site/offers.yaml');

    emitter.emit('unlink', '/site/offers.yaml');
    expect(heard).toHaveBeenCalledWith('/site/offers.yaml');
    expect(added).toEqual(['/site/offers.yaml']);
  });
});

describe('a loader that reads a file when it is saved', () => {
  it('reads the whole of a file that was emptied and then written, as fs.writeFile saves it', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'saved-whole-')), 'offers.yaml');
    writeFileSync(file, 'title: Auto insurance\n');
    const { watcher, emitter } = fakeWatcher();
    const reads: string[] = [];
    // A loader like Astro's: it reads the file again on every change it hears of.
    const reading: Loader = {
      name: 'reading',
      load: ({ watcher }) => {
        watcher?.on('change', () => {
          reads.push(readFileSync(file, 'utf8'));
        });
        return Promise.resolve();
      },
    };
    await readWhenSaved(reading).load({ watcher } as LoaderContext);

    // The save empties the file, and the watcher passes that change on; it drops the write that
    // follows within its own 50 ms.
    writeFileSync(file, '');
    emitter.emit('change', file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(file, 'title: Car insurance\n');

    await vi.waitFor(
      () => {
        expect(reads).toEqual(['title: Car insurance\n']);
      },
      { timeout: 2_000 },
    );
  });

  it('keeps the loader’s name and leaves a build, which has no watcher, without one', async () => {
    const load = vi.fn(() => Promise.resolve());
    const loader = readWhenSaved({ name: 'file-loader', load });
    expect(loader.name).toBe('file-loader');
    const build = {} as LoaderContext;
    await loader.load(build);
    expect(load).toHaveBeenCalledWith(build);
  });
});
