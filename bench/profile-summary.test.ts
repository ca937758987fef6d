import { describe, expect, it } from 'vitest';
import { sourceOf, timeBySource, type CpuProfile } from './profile-summary.ts';

const root = '/work/portal';
const frame = (url: string, functionName = 'f') => ({ url, functionName });

describe('sourceOf', () => {
  it('names a package, scoped or not, by its name alone', () => {
    expect(sourceOf(frame(`file://${root}/node_modules/react-dom/cjs/server.js`), root)).toBe(
      'react-dom',
    );
    expect(
      sourceOf(frame(`file://${root}/node_modules/@electric-sql/pglite/dist/index.js`), root),
    ).toBe('@electric-sql/pglite');
  });

  it('names a built chunk of the project without its content hash', () => {
    expect(sourceOf(frame(`file://${root}/dist/server/chunks/server_CAbc12-x.mjs`), root)).toBe(
      'dist/server/chunks/server.mjs',
    );
  });

  it('names the runtime’s own work, native calls, Node modules and WebAssembly as they are', () => {
    expect(sourceOf(frame('', '(idle)'), root)).toBe('idle');
    expect(sourceOf(frame('', '(garbage collector)'), root)).toBe('garbage collector');
    expect(sourceOf(frame('', 'writev'), root)).toBe('writev');
    expect(sourceOf(frame('node:zlib'), root)).toBe('node:zlib');
    expect(sourceOf(frame('wasm://wasm/022a9842'), root)).toBe('wasm');
  });
});

describe('timeBySource', () => {
  it('adds each sample’s time to its frame’s source, as shares of the whole, largest first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('', '(idle)') },
        { id: 2, callFrame: frame('node:zlib') },
        { id: 3, callFrame: frame('node:zlib', 'other') },
      ],
      samples: [1, 2, 3, 2],
      timeDeltas: [1000, 2000, 3000, 2000],
    };
    expect(timeBySource(profile, root)).toEqual([
      { source: 'node:zlib', ms: 7, share: 7 / 8 },
      { source: 'idle', ms: 1, share: 1 / 8 },
    ]);
  });
});
