import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDataFolderInUse, LOCK_FILE_NAME } from './db/data-folder-lock.ts';
import { startReferenceApiInThread } from './embedded-thread-client.ts';
import type { ReferenceApi } from './index.ts';
import { currentRequestContext, withRequestId } from '../platform/logger.ts';
import { systemClock } from '../platform/clock.ts';
import { LocalFileStorage } from './services/files/storage/local-storage.ts';

const entry = new URL('./embedded-thread.ts', import.meta.url);
const publicOrigin = 'http://portal.example.test';
const storageSecret = 'a storage secret of at least 32 characters';
const api = (pathname: string) => `http://embedded-api.internal${pathname}`;

describe('startReferenceApiInThread', () => {
  let storageDir: string;
  let thread: ReferenceApi;

  beforeAll(async () => {
    storageDir = await mkdtemp(path.join(tmpdir(), 'embedded-thread-test-'));
    thread = await startReferenceApiInThread(entry, {
      dataDir: 'memory://',
      seedDemoData: true,
      publicOrigin,
      storageDir,
      storageSecret,
    });
  }, 120_000);

  afterAll(async () => {
    await thread.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  const signIn = async () => {
    const [member] = thread.demoAccounts;
    if (!member) throw new Error('No demo account was seeded.');
    const response = await thread.fetch(
      new Request(api('/api/v1/users/sign_in'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ user: { email: member.email, password: member.password } }),
      }),
    );
    return { response, token: response.headers.get('Authorization') ?? '' };
  };

  it('says which demo accounts it seeded, once ready', () => {
    expect(thread.demoAccounts.map((account) => account.email)).toContain('member@example.com');
  });

  it('answers a call with its status, headers and JSON, as the API would in this thread', async () => {
    const { response, token } = await signIn();
    expect(response.status).toBe(200);
    expect(token).toMatch(/^Bearer \S+$/);

    const current = await thread.fetch(
      new Request(api('/api/v1/users/current'), { headers: { authorization: token } }),
    );
    expect(current.status).toBe(200);
    expect(current.headers.get('content-type')).toContain('application/json');
    expect(((await current.json()) as { email?: string }).email).toBe('member@example.com');
  });

  it("counts the statements a call cost with the caller's request, and answers with its id", async () => {
    const { token } = await signIn();
    const counted = await withRequestId('page-request-1234', async () => {
      const answer = await thread.fetch(
        new Request(api('/api/v1/users/current'), { headers: { authorization: token } }),
      );
      await answer.arrayBuffer();
      return {
        statements: currentRequestContext()?.databaseStatements ?? 0,
        requestId: answer.headers.get('x-request-id'),
      };
    });
    expect(counted.statements).toBeGreaterThan(0);
    expect(counted.requestId).toBe('page-request-1234');
  });

  it('streams a large file up to storage and back down through the thread, byte for byte', async () => {
    const content = randomBytes(600 * 1024);
    const { token } = await signIn();
    const asked = await thread.fetch(
      new Request(api('/api/v1/direct_uploads'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({
          blob: {
            filename: 'large.pdf',
            content_type: 'application/pdf',
            byte_size: content.byteLength,
            checksum: createHash('sha256').update(content).digest('base64'),
          },
        }),
      }),
    );
    expect(asked.status).toBe(201);
    const { direct_upload: target } = (await asked.json()) as {
      direct_upload: { url: string; headers: Record<string, string> };
    };
    const upload = await thread.fetch(
      new Request(target.url, {
        method: 'PUT',
        headers: { ...target.headers, 'content-length': String(content.byteLength) },
        // A stream, as the web server passes a browser's upload on.
        body: new Blob([content]).stream(),
        duplex: 'half',
      } as RequestInit & { duplex: 'half' }),
    );
    expect(upload.status).toBe(204);

    // The key is the server's; the demo's files are far smaller.
    const files = await readdir(storageDir, { recursive: true, withFileTypes: true });
    const stored = files
      .filter((found) => found.isFile())
      .map((found) => path.join(found.parentPath, found.name))
      .find((file) => statSync(file).size === content.byteLength);
    if (!stored) throw new Error('Nothing was stored.');
    const key = path.relative(storageDir, stored).split(path.sep).join('/');
    const storage = new LocalFileStorage({
      directory: storageDir,
      secret: Buffer.from(storageSecret, 'utf8'),
      publicOrigin,
      clock: systemClock,
    });
    const address = await storage.createDownloadUrl(
      { key, filename: 'large.pdf', contentType: 'application/pdf' },
      new Date(Date.now() + 60_000),
    );
    const download = await thread.fetch(new Request(address));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
  });
});

describe('startReferenceApiInThread, failing', () => {
  it('refuses to start with the reason the API gave, and knows a data folder in use', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'embedded-thread-lock-'));
    try {
      // Held by another live process (process 1 always is), as api/db/data-folder-lock.ts writes.
      await writeFile(
        path.join(folder, LOCK_FILE_NAME),
        `${JSON.stringify({ pid: 1, host: hostname(), token: 'another process' })}\n`,
      );
      const inUse = await startReferenceApiInThread(entry, { dataDir: folder }).catch(
        (refused: unknown) => refused,
      );
      expect(isDataFolderInUse(inUse)).toBe(true);
      expect((inUse as Error).message).toContain('is in use by another process (pid 1');

      const wrong = await startReferenceApiInThread(entry, {
        dataDir: 'memory://',
        publicOrigin: 'ftp://portal.example.test',
      }).catch((refused: unknown) => refused);
      expect(isDataFolderInUse(wrong)).toBe(false);
      expect((wrong as Error).message).toContain('publicOrigin must be an http or https origin');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails every call at once after it has closed', async () => {
    const closed = await startReferenceApiInThread(entry, { dataDir: 'memory://' });
    await closed.close();
    await expect(closed.fetch(new Request(api('/api/v1/dashboard')))).rejects.toThrow(
      "The embedded API's thread stopped",
    );
  }, 60_000);
});
