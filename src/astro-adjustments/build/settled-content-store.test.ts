import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { contentStoreModuleId, requestsUnderWay } from './settled-content-store.mjs';

const installedAstroConstants = readFileSync(
  new URL('../../../node_modules/astro/dist/content/consts.js', import.meta.url),
  'utf8',
);

describe('the installed Astro', () => {
  it('names its content store module and file as the adjustment does', () => {
    expect(contentStoreModuleId).toBe('\0astro:data-layer-content');
    expect(installedAstroConstants).toContain(
      'const DATA_STORE_VIRTUAL_ID = "astro:data-layer-content";',
    );
    expect(installedAstroConstants).toContain(
      'const RESOLVED_DATA_STORE_VIRTUAL_ID = "\\0" + DATA_STORE_VIRTUAL_ID;',
    );
    expect(installedAstroConstants).toContain('const DATA_STORE_FILE = "data-store.json";');
  });
});

describe('requestsUnderWay', () => {
  it('calls back at once when no request is under way', () => {
    const requests = requestsUnderWay();
    const then = vi.fn();
    requests.whenNoneUnderWay(then);
    expect(then).toHaveBeenCalledOnce();
  });

  it('waits for every request under way, and for those that start before they end', () => {
    const requests = requestsUnderWay();
    const then = vi.fn();
    requests.started();
    requests.whenNoneUnderWay(then);
    requests.started();
    requests.ended();
    expect(then).not.toHaveBeenCalled();
    requests.ended();
    expect(then).toHaveBeenCalledOnce();
  });

  it('calls each callback once, however many requests end after it', () => {
    const requests = requestsUnderWay();
    const then = vi.fn();
    requests.started();
    requests.whenNoneUnderWay(then);
    requests.ended();
    requests.started();
    requests.ended();
    expect(then).toHaveBeenCalledOnce();
  });
});
