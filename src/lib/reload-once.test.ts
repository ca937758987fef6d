import { describe, expect, it, vi } from 'vitest';
import { isFailedLoad, reloadOnce, reloadPauseMs } from './reload-once';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

const at = (href: string) => ({ href, reload: vi.fn() });

describe('reloadOnce', () => {
  it('reloads the page the first time', () => {
    const location = at('https://portal.example/dashboard');
    expect(reloadOnce({ location, storage: memoryStorage(), now: 0 })).toBe(true);
    expect(location.reload).toHaveBeenCalledOnce();
  });

  it('does not reload the same address again soon after, so a lasting failure never loops', () => {
    const storage = memoryStorage();
    const first = at('https://portal.example/dashboard');
    reloadOnce({ location: first, storage, now: 0 });
    const afterReload = at('https://portal.example/dashboard');
    expect(reloadOnce({ location: afterReload, storage, now: 3_000 })).toBe(false);
    expect(reloadOnce({ location: afterReload, storage, now: reloadPauseMs - 1 })).toBe(false);
    expect(afterReload.reload).not.toHaveBeenCalled();
  });

  it('reloads another address, or the same one after the pause', () => {
    const storage = memoryStorage();
    reloadOnce({ location: at('https://portal.example/dashboard'), storage, now: 0 });
    expect(reloadOnce({ location: at('https://portal.example/requests'), storage, now: 1 })).toBe(
      true,
    );
    reloadOnce({ location: at('https://portal.example/dashboard'), storage, now: 2 });
    expect(
      reloadOnce({
        location: at('https://portal.example/dashboard'),
        storage,
        now: 2 + reloadPauseMs,
      }),
    ).toBe(true);
  });

  it('never reloads when it cannot remember having done so', () => {
    const location = at('https://portal.example/dashboard');
    expect(reloadOnce({ location, storage: undefined, now: 0 })).toBe(false);
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(reloadOnce({ location, storage: full, now: 0 })).toBe(false);
    expect(location.reload).not.toHaveBeenCalled();
  });
});

describe('isFailedLoad', () => {
  it("recognises every browser's words for a module that could not be fetched", () => {
    expect(
      isFailedLoad(new TypeError('Failed to fetch dynamically imported module: https://x/a.js')),
    ).toBe(true);
    expect(isFailedLoad(new TypeError('error loading dynamically imported module: a.js'))).toBe(
      true,
    );
    expect(isFailedLoad(new TypeError('Importing a module script failed.'))).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isFailedLoad(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      false,
    );
    expect(isFailedLoad(undefined)).toBe(false);
  });
});
