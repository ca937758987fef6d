// A Vite plugin the tests add to a copy's development server: while the file `hold` exists in
// `folder`, the server's next read of Astro's content store is held after reading the file (and
// `held` written) until `hold` is removed. On a busy machine a read may take seconds; held, the
// moment an editor's save lands in the middle of one is no longer left to chance.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentStoreModuleId } from '../../../src/astro-adjustments/build/settled-content-store.mjs';

const pollIntervalMs = 50;

/**
 * @param {string} folder
 * @returns {import('vite').Plugin}
 */
export function heldContentStoreReads(folder) {
  const hold = path.join(folder, 'hold');
  const held = path.join(folder, 'held');
  return {
    name: 'test:held-content-store-reads',
    apply: 'serve',
    async transform(_code, id) {
      if (id !== contentStoreModuleId || !existsSync(hold)) return null;
      writeFileSync(held, '');
      while (existsSync(hold)) {
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
      return null;
    },
  };
}
