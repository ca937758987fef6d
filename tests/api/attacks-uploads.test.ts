import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../../api/db/schema/index.ts';
import { LocalFileStorage } from '../../api/services/files/storage/local-storage.ts';
import {
  putUpload,
  requestDirectUpload,
  startTestApi,
  testFileBytes,
  type DirectUploadAnswer,
  type TestApi,
} from './support.ts';

/**
 * Tampering with direct uploads (docs/PRODUCT.md §7.2.1) beyond tests/api/storage.test.ts and
 * uploads.test.ts: a file name that is a path never becomes one (the storage key is random), a
 * body longer than the Content-Length it claims is still cut off, and a signature moved from one
 * address to another is refused.
 */

let api: TestApi;
let storage: LocalFileStorage;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  if (!(api.storage instanceof LocalFileStorage)) throw new Error('Expected the local driver.');
  storage = api.storage;
  token = await api.signInToken(await api.createUser());
});

afterAll(async () => {
  await api.close();
});

const content = 'root:x:0:0:root:/root:/bin/bash\n';

/** Every file under the storage directory, as paths relative to it. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(storage.directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(storage.directory, path.join(entry.parentPath, entry.name)));
}

async function storageKeyOf(upload: DirectUploadAnswer): Promise<string> {
  const [blob] = await api.db
    .select({ key: blobs.key, uploadedAt: blobs.uploadedAt })
    .from(blobs)
    .where(eq(blobs.id, upload.id));
  if (!blob) throw new Error(`No blob ${upload.id}.`);
  return blob.key;
}

describe('a file name that is a path', () => {
  it.each([
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '..\\x',
    '/etc/passwd',
    'C:\\Windows\\System32\\drivers\\etc\\hosts',
    '\\\\server\\share\\file.txt',
    'uploads/../../../escape.txt',
    '....//....//etc/passwd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '.incoming',
    '~/.ssh/authorized_keys',
  ])(
    '%s is kept as a name only: stored under a random key, inside storage, read back as given',
    async (filename) => {
      const upload = await requestDirectUpload(api, token, { filename, content });
      expect((await putUpload(api, upload, testFileBytes({ content }))).status).toBe(204);

      const key = await storageKeyOf(upload);
      expect(key).toMatch(/^uploads\/[A-Za-z0-9_-]{32}$/);
      expect(upload.filename).toBe(filename);
      expect(upload.direct_upload.url).not.toContain(filename);
      expect(await storedFiles()).toContain(path.join(...key.split('/')));
      expect((await storedFiles()).every((file) => !file.startsWith('..'))).toBe(true);

      const created = await api.call('POST', '/api/v1/requests', {
        token,
        body: { request: { category_id: 'travel', title: 'A file', attachment_ids: [upload.id] } },
      });
      const request = (await created.json()) as { attachments: { id: string; filename: string }[] };
      expect(request.attachments).toEqual([expect.objectContaining({ filename })]);

      const download = (await (
        await api.call('GET', `/api/v1/attachments/${upload.id}`, { token })
      ).json()) as { url: string };
      const served = await api.app.request(download.url);
      expect(await served.text()).toBe(content);
      const plainName = /filename="([^"]*)"/.exec(served.headers.get('Content-Disposition') ?? '');
      expect(plainName?.[1]).not.toMatch(/[/\\]/);
    },
  );
});

describe('an upload body', () => {
  it('longer than the Content-Length it claims is refused with 413, keeping nothing', async () => {
    const upload = await requestDirectUpload(api, token, { content });

    const response = await putUpload(api, upload, `${content}and more`, {
      ...upload.direct_upload.headers,
      'Content-Length': String(upload.byte_size),
    });

    expect(response.status).toBe(413);
    expect(await storageKeyOf(upload).then((key) => storage.stat(key))).toBeUndefined();
  });

  it('sent to an address whose signature comes from another address is refused with 403', async () => {
    const small = await requestDirectUpload(api, token, { content: 'tiny' });
    const large = await requestDirectUpload(api, token, { content: `${content}${content}` });
    const [smallPayload] = small.direct_upload.url.split('/').at(-1)?.split('.') ?? [];
    const [, largeSignature] = large.direct_upload.url.split('/').at(-1)?.split('.') ?? [];
    const spliced = `${small.direct_upload.url.slice(0, small.direct_upload.url.lastIndexOf('/') + 1)}${smallPayload}.${largeSignature}`;

    const response = await putUpload(
      api,
      { ...small, direct_upload: { ...small.direct_upload, url: spliced } },
      'tiny',
    );

    expect(response.status).toBe(403);
  });

  it('with another content type than declared is refused with 400, however close', async () => {
    const upload = await requestDirectUpload(api, token, { content, contentType: 'text/plain' });

    for (const contentType of ['text/html', 'text/plain+html', 'application/octet-stream', '']) {
      const response = await putUpload(api, upload, content, {
        ...upload.direct_upload.headers,
        'Content-Type': contentType,
      });
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 400 });
    }
  });
});

describe('a file that a browser could run as the portal’s script, style or page', () => {
  /** Uploads a file declared `contentType`, attaches it, and fetches it by its download address. */
  async function uploadedAndServed(filename: string, contentType: string, body: string) {
    const upload = await requestDirectUpload(api, token, { filename, contentType, content: body });
    expect((await putUpload(api, upload, body)).status).toBe(204);
    const created = await api.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'A file', attachment_ids: [upload.id] } },
    });
    expect(created.status).toBe(201);
    const download = (await (
      await api.call('GET', `/api/v1/attachments/${upload.id}`, { token })
    ).json()) as { url: string };
    expect(new URL(download.url).pathname).toMatch(/^\/storage\/files\//);
    return api.app.request(download.url);
  }

  it.each([
    ['steal.js', 'text/javascript', 'fetch("/api/v1/users/current").then(console.log)'],
    ['page.html', 'text/html', '<script>alert(document.domain)</script>'],
    ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['look.css', 'text/css', 'body { background: url(/api/v1/users/current) }'],
  ])(
    '%s declared %s is served as application/octet-stream, nosniff, as an attachment, sandboxed',
    async (filename, contentType, body) => {
      const served = await uploadedAndServed(filename, contentType, body);

      expect(served.status).toBe(200);
      expect(served.headers.get('Content-Type')).toBe('application/octet-stream');
      expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(served.headers.get('Content-Disposition')).toBe(
        `attachment; filename="${filename}"; filename*=UTF-8''${filename}`,
      );
      expect(served.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox");
      expect(await served.text()).toBe(body);
    },
  );

  it('declared image/png keeps its type, with nosniff, as an attachment', async () => {
    const served = await uploadedAndServed('receipt.png', 'image/png', '\x89PNG\r\n\x1a\n');

    expect(served.headers.get('Content-Type')).toBe('image/png');
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(served.headers.get('Content-Disposition')).toMatch(/^attachment; /);
  });
});
