import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMovableClock } from '../../../../platform/clock.ts';
import { LocalFileStorage } from './local-storage.ts';
import { CHECKSUM_HEADER } from '../../../../contract/headers.ts';

let directory: string;
let storage: LocalFileStorage;
const clock = createMovableClock();

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'local-storage-'));
  storage = new LocalFileStorage({
    directory,
    secret: randomBytes(32),
    publicOrigin: 'https://portal.example.test',
    clock,
  });
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const bytes = new TextEncoder().encode('hello, storage');
const declaration = {
  key: 'uploads/abc',
  byteSize: bytes.byteLength,
  contentType: 'text/plain',
  checksum: createHash('sha256').update(bytes).digest('base64'),
};

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function incomingFiles(): Promise<string[]> {
  return readdir(path.join(directory, '.incoming')).catch(() => []);
}

describe('LocalFileStorage', () => {
  it('writes, measures and deletes a file by its key', async () => {
    await storage.write('demo/file-1', bytes);

    expect(await storage.stat('demo/file-1')).toEqual({ byteSize: bytes.byteLength });
    await storage.delete('demo/file-1');
    expect(await storage.stat('demo/file-1')).toBeUndefined();
    await expect(storage.delete('demo/file-1')).resolves.toBeUndefined();
  });

  it.each(['../escape', 'a/../../b', '/absolute', 'a//b', '.hidden', 'a\\b', ''])(
    'refuses the key %j, which could leave its directory',
    async (key) => {
      await expect(storage.write(key, bytes)).rejects.toThrow(/Not a storage key/);
    },
  );

  it('gives upload addresses on the public origin with the type and checksum headers', async () => {
    const target = await storage.createUploadTarget(
      declaration,
      new Date(clock.now().getTime() + 1000),
    );

    expect(target.url).toMatch(/^https:\/\/portal\.example\.test\/storage\/uploads\/[\w.-]+$/);
    expect(target.method).toBe('PUT');
    expect(target.headers).toEqual({
      'Content-Type': 'text/plain',
      [CHECKSUM_HEADER]: declaration.checksum,
    });
  });

  it('keeps an upload that matches its declaration, once moved into place', async () => {
    const result = await storage.receive(declaration, streamOf(bytes.slice(0, 5), bytes.slice(5)));

    expect(result.received).toBe(true);
    if (result.received) await result.moveIntoPlace();
    expect(await storage.stat(declaration.key)).toEqual({ byteSize: bytes.byteLength });
    expect(await incomingFiles()).toEqual([]);
  });

  it.each([
    ['too_large', [bytes, new Uint8Array([1])]],
    ['too_small', [bytes.slice(1)]],
    ['checksum_mismatch', [bytes.map((byte) => byte ^ 1)]],
  ] as const)('refuses an upload that is %s and leaves no file behind', async (reason, chunks) => {
    const result = await storage.receive(declaration, streamOf(...chunks));

    expect(result).toEqual({ received: false, reason });
    expect(await storage.stat(declaration.key)).toBeUndefined();
    expect(await incomingFiles()).toEqual([]);
  });

  it('opens a stored file as a stream', async () => {
    await storage.write('demo/file-2', bytes);

    const opened = await storage.openFile('demo/file-2');

    expect(opened?.byteSize).toBe(bytes.byteLength);
    expect(await new Response(opened?.content).text()).toBe('hello, storage');
    expect(await storage.openFile('demo/missing')).toBeUndefined();
  });
});
