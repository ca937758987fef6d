import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../../api/db/schema/index.ts';
import { MINUTE } from '../../platform/clock.ts';
import {
  putUpload,
  requestDirectUpload,
  sha256Base64,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  uploadFile,
  type DirectUploadAnswer,
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

const content = 'Moving inventory: sofa, table, 25 boxes.';

async function storedBlob(id: string) {
  const [blob] = await api.db.select().from(blobs).where(eq(blobs.id, id));
  if (!blob) throw new Error(`No blob ${id}.`);
  return blob;
}

async function expectNothingStored(upload: DirectUploadAnswer): Promise<void> {
  const blob = await storedBlob(upload.id);
  expect(blob.uploadedAt).toBeNull();
  expect(await api.storage.stat(blob.key)).toBeUndefined();
}

/** The token of an address, with one character of it (at `index`) changed. */
function alteredUrl(url: string, index: number): string {
  const token = url.slice(url.lastIndexOf('/') + 1);
  const character = token[index] === 'A' ? 'B' : 'A';
  const changed = `${token.slice(0, index)}${character}${token.slice(index + 1)}`;
  return `${url.slice(0, url.lastIndexOf('/') + 1)}${changed}`;
}

describe('PUT /storage/uploads/{token}', () => {
  it('stores the file that matches the declaration (204) and records the upload', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content);

    expect(response.status).toBe(204);
    const blob = await storedBlob(upload.id);
    expect(blob.uploadedAt).toEqual(api.clock.now());
    expect(await api.storage.stat(blob.key)).toEqual({ byteSize: upload.byte_size });
  });

  it('is served at the root, not under /api/v1', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    const path = new URL(upload.direct_upload.url).pathname;

    const response = await api.app.request(`/api/v1${path}`, {
      method: 'PUT',
      headers: upload.direct_upload.headers,
      body: content,
    });

    expect(path).toMatch(/^\/storage\/uploads\//);
    expect(response.status).toBe(404);
  });

  it('takes files far larger than the 64 KiB limit of JSON calls', async () => {
    const bytes = new Uint8Array(300 * 1024).fill(7);
    const upload = await requestDirectUpload(api, await newMemberToken(), {
      filename: 'scan.bin',
      contentType: 'application/octet-stream',
      content: bytes,
    });

    const response = await putUpload(api, upload, bytes);

    expect(response.status).toBe(204);
  });

  it('accepts a Content-Type with parameters when its media type is the declared one', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content, {
      ...upload.direct_upload.headers,
      'Content-Type': 'TEXT/plain; charset=UTF-8',
    });

    expect(response.status).toBe(204);
  });

  it('refuses more bytes than declared with 413, keeping nothing', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, `${content}!`);

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'The file is larger than declared for this upload.',
    });
    await expectNothingStored(upload);
  });

  it('refuses a declared Content-Length above the declared size with 413, before reading', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content, {
      ...upload.direct_upload.headers,
      'Content-Length': String(upload.byte_size + 1),
    });

    expect(response.status).toBe(413);
    await expectNothingStored(upload);
  });

  it('refuses fewer bytes than declared with 400, keeping nothing', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content.slice(0, -1));

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'The file is smaller than declared for this upload: it did not arrive whole.',
    });
    await expectNothingStored(upload);
  });

  it('refuses another Content-Type with 400', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content, {
      ...upload.direct_upload.headers,
      'Content-Type': 'text/html',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'The file is not of the type declared for this upload.',
    });
    await expectNothingStored(upload);
  });

  it('refuses a checksum header that is not the declared one with 400', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });

    const response = await putUpload(api, upload, content, {
      ...upload.direct_upload.headers,
      'X-Checksum-SHA256': sha256Base64('something else'),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'The file does not match the checksum declared for this upload.',
    });
    await expectNothingStored(upload);
  });

  it('refuses content of the declared size whose checksum differs, with 400', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    const sameSize = content.replace('sofa', 'SOFA');

    const response = await putUpload(api, upload, sameSize);

    expect(response.status).toBe(400);
    await expectNothingStored(upload);
  });

  it('refuses an expired address with 403', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    api.clock.advanceBy(10 * MINUTE);

    const response = await putUpload(api, upload, content);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'This upload address is invalid or has expired. Please upload the file again.',
    });
    await expectNothingStored(upload);
  });

  it('refuses an altered address with 403, whichever part was changed', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    const url = upload.direct_upload.url;

    for (const index of [0, 10, url.length - url.lastIndexOf('/') - 3]) {
      const altered = {
        ...upload,
        direct_upload: { ...upload.direct_upload, url: alteredUrl(url, index) },
      };
      const response = await putUpload(api, altered, content);
      expect(response.status).toBe(403);
    }
    await expectNothingStored(upload);
  });

  it('refuses a download address used for an upload with 403', async () => {
    const token = await newMemberToken();
    const fileId = await uploadFile(api, token, { content });
    await api.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [fileId] } },
    });
    const { url } = (await (
      await api.call('GET', `/api/v1/attachments/${fileId}`, { token })
    ).json()) as { url: string };
    const token_ = url.slice(url.lastIndexOf('/') + 1);

    const response = await api.app.request(`${TEST_PUBLIC_ORIGIN}/storage/uploads/${token_}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain' },
      body: content,
    });

    expect(response.status).toBe(403);
  });

  it('takes one upload per file: a second PUT answers 409', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    await putUpload(api, upload, content);

    const response = await putUpload(api, upload, content);

    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'This file has already been uploaded.' });
  });

  it('accepts the right upload after a refused one', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    await putUpload(api, upload, `${content} and more`);

    const response = await putUpload(api, upload, content);

    expect(response.status).toBe(204);
  });

  it('answers the CORS preflight for the site origin only', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    const preflight = (origin: string) =>
      api.app.request(upload.direct_upload.url, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': 'content-type, x-checksum-sha256',
        },
      });

    const fromSite = await preflight(TEST_PUBLIC_ORIGIN);
    const fromElsewhere = await preflight('https://evil.example');

    expect(fromSite.status).toBe(204);
    expect(fromSite.headers.get('Access-Control-Allow-Origin')).toBe(TEST_PUBLIC_ORIGIN);
    expect(fromSite.headers.get('Access-Control-Allow-Methods')).toContain('PUT');
    expect(fromSite.headers.get('Access-Control-Allow-Headers')?.toLowerCase()).toContain(
      'x-checksum-sha256',
    );
    expect(fromElsewhere.headers.get('Access-Control-Allow-Origin')).not.toBe(
      'https://evil.example',
    );
    const upload2 = await putUpload(api, upload, content, {
      ...upload.direct_upload.headers,
      Origin: TEST_PUBLIC_ORIGIN,
    });
    expect(upload2.headers.get('Access-Control-Allow-Origin')).toBe(TEST_PUBLIC_ORIGIN);
  });
});

describe('GET /storage/files/{token}', () => {
  async function attachedDownload(filename: string, contentType = 'text/plain') {
    const token = await newMemberToken();
    const fileId = await uploadFile(api, token, { filename, contentType, content });
    await api.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [fileId] } },
    });
    const body = (await (
      await api.call('GET', `/api/v1/attachments/${fileId}`, { token })
    ).json()) as { url: string };
    return body.url;
  }

  it('serves the file as a download with its type, nosniff and no caching', async () => {
    const url = await attachedDownload('inventory.txt');

    const response = await api.app.request(url);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(content);
    expect(response.headers.get('Content-Type')).toBe('text/plain');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="inventory.txt"; filename*=UTF-8''inventory.txt`,
    );
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Content-Length')).toBe(String(content.length));
  });

  it('names any file safely in Content-Disposition', async () => {
    const url = await attachedDownload('Résumé "final"\\v2;.html', 'text/html');

    const response = await api.app.request(url);

    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="R_sum_ _final__v2_.html"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%5Cv2%3B.html`,
    );
    expect(response.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(response.headers.get('Content-Security-Policy')).toContain('sandbox');
  });

  it('refuses the address after its 5 minutes with 403', async () => {
    const url = await attachedDownload('inventory.txt');
    api.clock.advanceBy(5 * MINUTE);

    const response = await api.app.request(url);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error:
        'This download link is invalid or has expired. Please open the file again from its request.',
    });
  });

  it('refuses an altered address with 403', async () => {
    const url = await attachedDownload('inventory.txt');

    const response = await api.app.request(alteredUrl(url, 5));

    expect(response.status).toBe(403);
  });

  it('refuses an upload address used for a download with 403', async () => {
    const upload = await requestDirectUpload(api, await newMemberToken(), { content });
    await putUpload(api, upload, content);
    const uploadToken = upload.direct_upload.url.slice(
      upload.direct_upload.url.lastIndexOf('/') + 1,
    );

    const response = await api.app.request(`/storage/files/${uploadToken}`);

    expect(response.status).toBe(403);
  });
});
