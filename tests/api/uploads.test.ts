import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../../api/db/schema/index.ts';
import { HOUR, MINUTE } from '../../platform/clock.ts';
import type {
  DownloadableFile,
  FileStorage,
  StoredFileDeclaration,
  UploadTarget,
} from '../../api/services/files/storage/file-storage.ts';
import { createUnattachedFileSweeper } from '../../api/services/jobs/unattached-file-sweeper.ts';
import {
  requestDirectUpload,
  sha256Base64,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  uploadFile,
  type TestApi,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function newMemberToken(): Promise<string> {
  return api.signInToken(await api.createUser());
}

function postDirectUpload(token: string, blob: Record<string, unknown>): Promise<Response> {
  return api.call('POST', '/api/v1/direct_uploads', { token, body: { blob } });
}

const content = 'Moving inventory: sofa, table, 25 boxes.';
const validBlob = {
  filename: 'inventory.txt',
  content_type: 'text/plain',
  byte_size: new TextEncoder().encode(content).byteLength,
  checksum: sha256Base64(content),
};

function createRequestWith(token: string, attachmentIds: string[]): Promise<Response> {
  return api.call('POST', '/api/v1/requests', {
    token,
    body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: attachmentIds } },
  });
}

async function storedBlob(id: string) {
  const [blob] = await api.db.select().from(blobs).where(eq(blobs.id, id));
  return blob;
}

describe('POST /api/v1/direct_uploads', () => {
  it('answers 201 with the id and a signed PUT address, valid 10 minutes', async () => {
    const token = await newMemberToken();

    const response = await postDirectUpload(token, validBlob);

    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      filename: 'inventory.txt',
      content_type: 'text/plain',
      byte_size: validBlob.byte_size,
      direct_upload: {
        url: expect.stringMatching(
          new RegExp(`^${TEST_PUBLIC_ORIGIN.replace(/\./g, '\\.')}/storage/uploads/[\\w.-]+$`),
        ) as unknown,
        method: 'PUT',
        headers: { 'Content-Type': 'text/plain', 'X-Checksum-SHA256': validBlob.checksum },
      },
      expires_at: new Date(api.clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    const blob = await storedBlob(body['id'] as string);
    expect(blob?.uploadedAt).toBeNull();
    // The storage key is the server's, never the member's file name.
    expect(blob?.key).not.toContain('inventory');
  });

  it('lower-cases the content type and accepts exactly 25 MB', async () => {
    const token = await newMemberToken();

    const response = await postDirectUpload(token, {
      ...validBlob,
      content_type: 'Application/PDF',
      byte_size: 26_214_400,
    });

    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ content_type: 'application/pdf' });
  });

  it.each([
    [{ byte_size: 26_214_401 }, 'Files can be at most 25 MB.', 'blob.byte_size'],
    [{ byte_size: 0 }, 'blob.byte_size must be at least 1.', 'blob.byte_size'],
    [{ byte_size: 1.5 }, 'blob.byte_size must be a whole number.', 'blob.byte_size'],
    [{ filename: '' }, 'blob.filename must not be empty.', 'blob.filename'],
    [
      { filename: 'x'.repeat(256) },
      'blob.filename must be at most 255 characters.',
      'blob.filename',
    ],
    [
      { filename: 'bad\nname.txt' },
      'blob.filename must not contain control characters.',
      'blob.filename',
    ],
    [
      { content_type: 'pdf' },
      'blob.content_type must be a media type such as application/pdf.',
      'blob.content_type',
    ],
    [
      { content_type: 'text/plain; charset=utf-8' },
      'blob.content_type must be a media type such as application/pdf.',
      'blob.content_type',
    ],
    [
      { checksum: 'abc' },
      'blob.checksum must be the base64 SHA-256 of the file (44 characters).',
      'blob.checksum',
    ],
  ])('refuses %j with 400 naming the field', async (change, error, field) => {
    const token = await newMemberToken();

    const response = await postDirectUpload(token, { ...validBlob, ...change });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field });
  });

  it('answers 401 without a session', async () => {
    const response = await api.call('POST', '/api/v1/direct_uploads', {
      body: { blob: validBlob },
    });

    expect(response.status).toBe(401);
  });
});

describe('attaching a file', () => {
  it('refuses a file whose upload has not completed, with 400 naming attachment_ids', async () => {
    const token = await newMemberToken();
    const upload = await requestDirectUpload(api, token);

    const response = await createRequestWith(token, [upload.id]);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'That file has not finished uploading. Please wait, or upload it again.',
      field: 'request.attachment_ids',
    });
  });

  it('refuses a file that is already attached, and leaves it where it was', async () => {
    const token = await newMemberToken();
    const fileId = await uploadFile(api, token);
    const first = (await (await createRequestWith(token, [fileId])).json()) as { id: string };

    const response = await createRequestWith(token, [fileId]);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'That file is already attached elsewhere. Please upload it again.',
      field: 'request.attachment_ids',
    });
    expect((await storedBlob(fileId))?.requestId).toBe(first.id);
  });
});

describe('attaching with a driver the browser uploads to directly', () => {
  /** An S3-like store: the API hears nothing of uploads and asks `stat` instead. */
  function createDirectStore(): FileStorage & { files: Map<string, Uint8Array> } {
    const files = new Map<string, Uint8Array>();
    return {
      description: 'test store',
      files,
      createUploadTarget: (file: StoredFileDeclaration): Promise<UploadTarget> =>
        Promise.resolve({
          url: `https://bucket.example.test/${file.key}`,
          method: 'PUT',
          headers: { 'Content-Type': file.contentType },
        }),
      createDownloadUrl: (file: DownloadableFile) =>
        Promise.resolve(`https://bucket.example.test/${file.key}?signed`),
      stat: (key: string) => {
        const file = files.get(key);
        return Promise.resolve(file ? { byteSize: file.byteLength } : undefined);
      },
      write: (key: string, bytes: Uint8Array) => {
        files.set(key, bytes);
        return Promise.resolve();
      },
      delete: (key: string) => {
        files.delete(key);
        return Promise.resolve();
      },
    };
  }

  let directApi: TestApi;
  let store: ReturnType<typeof createDirectStore>;

  beforeAll(async () => {
    store = createDirectStore();
    directApi = await startTestApi({ storage: store });
  });

  afterAll(async () => {
    await directApi.close();
  });

  it('attaches a file storage holds at exactly the declared size, recording the upload', async () => {
    const token = await directApi.signInToken(await directApi.createUser());
    const upload = await requestDirectUpload(directApi, token);
    const blob = (await directApi.db.select().from(blobs).where(eq(blobs.id, upload.id)))[0];
    if (!blob) throw new Error('no blob');
    await store.write(blob.key, new TextEncoder().encode(content), 'text/plain');

    const response = await directApi.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [upload.id] } },
    });

    expect(response.status).toBe(201);
    const [attached] = await directApi.db.select().from(blobs).where(eq(blobs.id, upload.id));
    expect(attached?.uploadedAt).toEqual(directApi.clock.now());
  });

  it('refuses a file storage holds at another size', async () => {
    const token = await directApi.signInToken(await directApi.createUser());
    const upload = await requestDirectUpload(directApi, token);
    const blob = (await directApi.db.select().from(blobs).where(eq(blobs.id, upload.id)))[0];
    if (!blob) throw new Error('no blob');
    await store.write(blob.key, new TextEncoder().encode('short'), 'text/plain');

    const response = await directApi.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [upload.id] } },
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: 'request.attachment_ids' });
  });

  it('hands out the driver’s own download address', async () => {
    const token = await directApi.signInToken(await directApi.createUser());
    const upload = await requestDirectUpload(directApi, token);
    const blob = (await directApi.db.select().from(blobs).where(eq(blobs.id, upload.id)))[0];
    if (!blob) throw new Error('no blob');
    await store.write(blob.key, new TextEncoder().encode(content), 'text/plain');
    await directApi.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [upload.id] } },
    });

    const response = await directApi.call('GET', `/api/v1/attachments/${upload.id}`, { token });

    expect(await response.json()).toMatchObject({
      url: `https://bucket.example.test/${blob.key}?signed`,
    });
  });
});

describe('GET /api/v1/attachments/{id}', () => {
  it('answers a download address valid for 5 minutes', async () => {
    const token = await newMemberToken();
    const fileId = await uploadFile(api, token);
    await createRequestWith(token, [fileId]);

    const response = await api.call('GET', `/api/v1/attachments/${fileId}`, { token });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      url: expect.stringMatching(
        new RegExp(`^${TEST_PUBLIC_ORIGIN.replace(/\./g, '\\.')}/storage/files/[\\w.-]+$`),
      ) as unknown,
      expires_at: new Date(api.clock.now().getTime() + 5 * MINUTE).toISOString(),
    });
  });

  it('answers 404 for another member’s file, an unattached file, an unknown and a malformed id', async () => {
    const owner = await newMemberToken();
    const other = await newMemberToken();
    const attached = await uploadFile(api, owner);
    await createRequestWith(owner, [attached]);
    const unattached = await uploadFile(api, owner);

    for (const [token, id] of [
      [other, attached],
      [owner, unattached],
      [owner, randomUUID()],
      [owner, 'not-a-uuid'],
    ] as const) {
      const response = await api.call('GET', `/api/v1/attachments/${id}`, { token });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found.' });
    }
  });
});

describe('removing files nobody attached', () => {
  it('removes a file an hour after its address was asked for, row and content', async () => {
    const account = await api.createUser();
    const sweeper = createUnattachedFileSweeper({
      db: api.db,
      clock: api.clock,
      storage: api.storage,
    });
    // Whatever earlier tests left is due first; this test looks at its own files only.
    api.clock.advanceBy(2 * 24 * HOUR);
    await sweeper.removeDue();
    const token = await api.signInToken(account);
    const unattached = await uploadFile(api, token);
    const attached = await uploadFile(api, token);
    await createRequestWith(token, [attached]);
    const unattachedKey = (await storedBlob(unattached))?.key ?? '';

    api.clock.advanceBy(HOUR - 1);
    expect(await sweeper.removeDue()).toBe(0);
    api.clock.advanceBy(1);
    expect(await sweeper.removeDue()).toBe(1);

    expect(await storedBlob(unattached)).toBeUndefined();
    expect(await api.storage.stat(unattachedKey)).toBeUndefined();
    expect(await storedBlob(attached)).toBeDefined();
    // Sessions idle for an hour have ended: the member signs in again.
    const late = await createRequestWith(await api.signInToken(account), [unattached]);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      error: 'We cannot find that file. Please upload it again.',
    });
  });

  it('removes files whose upload never started', async () => {
    const token = await newMemberToken();
    const sweeper = createUnattachedFileSweeper({
      db: api.db,
      clock: api.clock,
      storage: api.storage,
    });
    const upload = await requestDirectUpload(api, token);

    api.clock.advanceBy(HOUR + 1);
    expect(await sweeper.removeDue()).toBeGreaterThanOrEqual(1);

    expect(await storedBlob(upload.id)).toBeUndefined();
  });

  it('stops when asked, waiting for nothing when idle', async () => {
    const sweeper = createUnattachedFileSweeper({
      db: api.db,
      clock: api.clock,
      storage: api.storage,
      intervalMs: 10,
    });
    sweeper.start();
    await new Promise((resolve) => setTimeout(resolve, 30));

    await expect(sweeper.stop()).resolves.toBeUndefined();
  });
});
