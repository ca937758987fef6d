import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReferenceApi, type ReferenceApiServer } from '../../api/index.ts';
import { createMovableClock, MINUTE } from '../../platform/clock.ts';
import type { FileStorage } from '../../api/services/files/storage/file-storage.ts';
import { createFreshDatabase, type FreshDatabase } from './support.ts';

const SECRET = 'a storage secret of at least 32 characters';
const content = new TextEncoder().encode('hello');
const clock = createMovableClock();

describe('openReferenceApi and storage', () => {
  let fresh: FreshDatabase;
  let directory: string;
  let first: ReferenceApiServer;
  let second: ReferenceApiServer;

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    directory = await mkdtemp(path.join(tmpdir(), 'reference-api-storage-test-'));
    const options = {
      ...fresh.options,
      clock,
      deliverOutbox: false,
      storageDir: directory,
      storageSecret: SECRET,
      publicOrigin: 'https://portal.example.test',
    };
    first = await openReferenceApi(options);
    // A second server sharing the directory and the secret (its database does not matter here).
    second = await openReferenceApi({ ...options, dataDir: 'memory://', databaseUrl: undefined });
  });

  afterAll(async () => {
    await first.close();
    await second.close();
    await fresh.dispose();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps files in storageDir and describes the driver', async () => {
    await first.storage.write('demo/greeting', content, 'text/plain');

    expect(first.storage.description).toBe(`local disk ${directory}`);
    expect(await second.storage.stat('demo/greeting')).toEqual({ byteSize: content.byteLength });
  });

  it('signs addresses that any server with the same secret accepts', async () => {
    await first.storage.write('demo/shared', content, 'text/plain');
    const url = await first.storage.createDownloadUrl(
      { key: 'demo/shared', filename: 'shared.txt', contentType: 'text/plain' },
      new Date(clock.now().getTime() + 5 * MINUTE),
    );

    const response = await second.fetch(new Request(url));

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello');
  });

  it('refuses a storage secret shorter than 32 characters', async () => {
    await expect(
      openReferenceApi({ dataDir: 'memory://', storageSecret: 'too short' }),
    ).rejects.toThrow('storageSecret must be at least 32 characters long.');
  });

  it('uses the storage it is given, and then serves no /storage routes itself', async () => {
    const given: FileStorage = {
      description: 'given store',
      createUploadTarget: () =>
        Promise.resolve({ url: 'https://bucket.example.test/x', method: 'PUT', headers: {} }),
      createDownloadUrl: () => Promise.resolve('https://bucket.example.test/x'),
      stat: () => Promise.resolve(undefined),
      write: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    const api = await openReferenceApi({
      dataDir: 'memory://',
      storage: given,
      deliverOutbox: false,
    });
    try {
      const response = await api.fetch(
        new Request('http://embedded-api.internal/storage/files/anything'),
      );

      expect(api.storage).toBe(given);
      expect(response.status).toBe(404);
    } finally {
      await api.close();
    }
  });
});
