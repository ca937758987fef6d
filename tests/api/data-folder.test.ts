import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE_NAME } from '../../api/db/data-folder-lock.ts';
import { openReferenceApi, type ReferenceApiServer } from '../../api/index.ts';

/**
 * The reference API on a PGlite folder (docs/OPERATIONS.md, "Data"): it holds the folder while
 * open, so that another opening of it is refused rather than sharing the database, and lets it
 * go on close. Processes are in tests/e2e/data-folder-lock.spec.ts; here, two openings in one.
 */
describe('the reference API on a PGlite data folder', () => {
  let folder: string;
  const opened: ReferenceApiServer[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'reference-api-data-'));
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((api) => api.close()));
    await rm(folder, { recursive: true, force: true });
  });

  const open = async () => {
    const api = await openReferenceApi({
      dataDir: path.join(folder, 'pglite'),
      storageDir: path.join(folder, 'storage'),
      deliverOutbox: false,
      sweepUnattachedFiles: false,
    });
    opened.push(api);
    return api;
  };

  it('refuses a second opening of a folder in use, and lets the next one have it once closed', async () => {
    const first = await open();
    const refusal = await open().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DataFolderInUseError);
    expect((refusal as Error).message).toContain(
      `The data folder ${path.join(folder, 'pglite')} is in use by this very process`,
    );

    opened.splice(opened.indexOf(first), 1);
    await first.close();
    expect(existsSync(path.join(folder, 'pglite', LOCK_FILE_NAME))).toBe(false);
    const next = await open();
    expect((await next.fetch(new Request('http://api.test/readyz'))).status).toBe(200);
  });
});
