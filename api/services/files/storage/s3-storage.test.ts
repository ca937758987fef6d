import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, portRange } from '../../../../scripts/free-port.mjs';
import { createMovableClock, MINUTE } from '../../../../platform/clock.ts';
import { attachmentContentDisposition } from './content-disposition.ts';
import type { FileStorage, UploadTarget } from './file-storage.ts';
import { s3BrowserOrigin, type S3Settings } from '../../../../platform/s3-settings.ts';
import { createS3Storage } from './s3-storage.ts';

/** The part of s3rver (an S3-compatible server in Node, CommonJS without types) the tests use. */
interface LocalS3Server {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Read on every request: accept a wrong signature (expiry is still checked). */
  allowMismatchedSignatures: boolean;
}
type LocalS3ServerConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => LocalS3Server;
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as LocalS3ServerConstructor;

const BUCKET = 'portal-files';
// s3rver's one account.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let server: LocalS3Server;
let directory: string;
let settings: S3Settings;
let storage: FileStorage;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'portal-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    // s3rver listens itself, and a port it finds taken is an uncaught error: in TEST_PORT_RANGE,
    // one found free a moment ago.
    port: portRange() === null ? 0 : await freePort(),
    directory,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  settings = {
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: CREDENTIALS,
    forcePathStyle: true,
  };
  storage = createS3Storage(settings);
});

afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

function declare(key: string, content: Uint8Array, contentType = 'application/pdf') {
  return {
    key,
    byteSize: content.byteLength,
    contentType,
    checksum: createHash('sha256').update(content).digest('base64'),
  };
}

function put(target: UploadTarget, body: Uint8Array<ArrayBuffer>, headers = target.headers) {
  return fetch(target.url, { method: target.method, headers, body });
}

async function errorCode(response: Response): Promise<string | undefined> {
  return /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];
}

/**
 * s3rver encodes query values with encodeURIComponent, which leaves `*` and `'` alone where
 * SigV4 (and S3) encode them, so it miscomputes the signature of every address whose query
 * holds `filename*=UTF-8''…`. Downloads are fetched with its signature check off.
 */
async function fetchIgnoringSignature(url: string): Promise<Response> {
  server.allowMismatchedSignatures = true;
  try {
    return await fetch(url);
  } finally {
    server.allowMismatchedSignatures = false;
  }
}

const pdf = new TextEncoder().encode('%PDF-1.7 a small statement');

describe('uploading through a presigned address', () => {
  it('stores the file sent with the given headers, and stat reports its size', async () => {
    const target = await storage.createUploadTarget(declare('uploads/stored', pdf), inMinutes(10));

    expect(target.method).toBe('PUT');
    expect((await put(target, pdf)).status).toBe(200);
    expect(await storage.stat('uploads/stored')).toEqual({ byteSize: pdf.byteLength });
  });

  it('asks for exactly the content type and the checksum, and signs them with the size', async () => {
    const declaration = declare('uploads/signed', pdf);
    const target = await storage.createUploadTarget(declaration, inMinutes(10));
    const query = new URL(target.url).searchParams;

    expect(target.headers).toEqual({
      'Content-Type': 'application/pdf',
      'x-amz-checksum-sha256': declaration.checksum,
    });
    expect(query.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host;x-amz-checksum-sha256',
    );
    // A checksum left in the query would not have to match the one the browser sends.
    expect(query.has('x-amz-checksum-sha256')).toBe(false);
    expect(query.get('X-Amz-Expires')).toBe('600');
  });

  it('dates the address by its clock and never lets it outlive the expiry it is given', async () => {
    const clock = createMovableClock(new Date('2026-01-15T09:00:00.700Z'));
    const dated = createS3Storage(settings, clock);

    const target = await dated.createUploadTarget(
      declare('uploads/dated', pdf),
      new Date('2026-01-15T09:10:00.500Z'),
    );
    const query = new URL(target.url).searchParams;

    expect(query.get('X-Amz-Date')).toBe('20260115T090000Z');
    expect(query.get('X-Amz-Expires')).toBe('600');
  });

  it('refuses more bytes, or fewer, than declared', async () => {
    const target = await storage.createUploadTarget(declare('uploads/size', pdf), inMinutes(10));

    const more = await put(target, new Uint8Array([...pdf, 0x20]));
    expect(more.status).toBe(403);
    expect(await errorCode(more)).toBe('SignatureDoesNotMatch');
    expect((await put(target, pdf.subarray(1))).status).toBe(403);
    expect(await storage.stat('uploads/size')).toBeUndefined();
  });

  it('refuses another content type than declared', async () => {
    const target = await storage.createUploadTarget(declare('uploads/type', pdf), inMinutes(10));

    const response = await put(target, pdf, { ...target.headers, 'Content-Type': 'text/html' });

    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe('SignatureDoesNotMatch');
    expect(await storage.stat('uploads/type')).toBeUndefined();
  });

  it('refuses another checksum than declared', async () => {
    const target = await storage.createUploadTarget(declare('uploads/sum', pdf), inMinutes(10));
    const otherChecksum = createHash('sha256').update('other content').digest('base64');

    const response = await put(target, pdf, {
      ...target.headers,
      'x-amz-checksum-sha256': otherChecksum,
    });

    expect(response.status).toBe(403);
    expect(await storage.stat('uploads/sum')).toBeUndefined();
  });

  it('refuses an address whose signature was altered', async () => {
    const target = await storage.createUploadTarget(declare('uploads/forged', pdf), inMinutes(10));
    const forged = target.url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_, first: string) => `X-Amz-Signature=${first === '0' ? '1' : '0'}`,
    );

    const response = await put({ ...target, url: forged }, pdf);

    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe('SignatureDoesNotMatch');
    expect(await storage.stat('uploads/forged')).toBeUndefined();
  });

  it('refuses an upload once the address has expired', async () => {
    // Signed by a clock 20 minutes behind, for 10 minutes: expired 10 minutes ago.
    const clock = createMovableClock(new Date(Date.now() - 20 * MINUTE));
    const late = createS3Storage(settings, clock);
    const expiresAt = new Date(clock.now().getTime() + 10 * MINUTE);
    const target = await late.createUploadTarget(declare('uploads/late', pdf), expiresAt);

    const response = await put(target, pdf);

    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
    expect(await storage.stat('uploads/late')).toBeUndefined();
  });

  it('refuses to sign an address that has already expired or would outlive S3’s week', async () => {
    const declaration = declare('uploads/never', pdf);

    await expect(storage.createUploadTarget(declaration, inMinutes(-1))).rejects.toThrow(
      /must expire between 1 second and 7 days from now/,
    );
    await expect(storage.createUploadTarget(declaration, inMinutes(8 * 24 * 60))).rejects.toThrow(
      RangeError,
    );
  });
});

describe('downloading through a presigned address', () => {
  const csv = new TextEncoder().encode('date,amount\n2026-01-15,12.50\n');

  it('serves the bytes as an attachment with the declared type, whatever the file’s name', async () => {
    await storage.write('files/statement', csv, 'application/octet-stream');
    const filename = 'Relevé "janvier" 50% \\ 日本.csv';

    const url = await storage.createDownloadUrl(
      { key: 'files/statement', filename, contentType: 'text/csv' },
      inMinutes(5),
    );
    const response = await fetchIgnoringSignature(url);

    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      attachmentContentDisposition(filename),
    );
    expect(response.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''Relev%C3%A9%20%22janvier%22%2050%25%20%5C%20%E6%97%A5%E6%9C%AC.csv`,
    );
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(csv);
  });

  it.each(['text/javascript', 'text/html', 'image/svg+xml', 'text/css'])(
    'asks S3 to serve a file declared %s as application/octet-stream, whatever it was stored as',
    async (contentType) => {
      const script = new TextEncoder().encode('alert(document.domain)');
      await storage.write('files/script', script, contentType);

      const url = await storage.createDownloadUrl(
        { key: 'files/script', filename: 'script.js', contentType },
        inMinutes(5),
      );
      const response = await fetchIgnoringSignature(url);

      expect(new URL(url).searchParams.get('response-content-type')).toBe(
        'application/octet-stream',
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
    },
  );

  it('refuses a download once the address has expired', async () => {
    await storage.write('files/old', csv, 'text/csv');
    const clock = createMovableClock(new Date(Date.now() - 10 * MINUTE));
    const late = createS3Storage(settings, clock);

    const url = await late.createDownloadUrl(
      { key: 'files/old', filename: 'old.csv', contentType: 'text/csv' },
      new Date(clock.now().getTime() + 5 * MINUTE),
    );
    const response = await fetchIgnoringSignature(url);

    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
  });
});

describe('stat, write and delete', () => {
  it('reports nothing for a key storage does not hold', async () => {
    expect(await storage.stat('files/never-written')).toBeUndefined();
  });

  it('removes a file, and removing it again is not an error', async () => {
    await storage.write('files/removed', pdf, 'application/pdf');
    expect(await storage.stat('files/removed')).toEqual({ byteSize: pdf.byteLength });

    await storage.delete('files/removed');
    await storage.delete('files/removed');

    expect(await storage.stat('files/removed')).toBeUndefined();
  });

  it('describes itself by bucket and endpoint for the start-up log', () => {
    expect(storage.description).toBe(`S3 bucket ${BUCKET} at ${settings.endpoint}`);
  });
});

describe('s3BrowserOrigin', () => {
  it.each<[string, Partial<S3Settings>]>([
    ['AWS, virtual-hosted', {}],
    ['AWS, path-style', { forcePathStyle: true }],
    ['another store, virtual-hosted', { endpoint: 'https://files.example.com:9000' }],
    ['another store, path-style', { endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }],
  ])('is the origin of the addresses the driver signs (%s)', async (_case, overrides) => {
    const settings: S3Settings = {
      bucket: 'portal-files',
      region: 'eu-west-1',
      endpoint: undefined,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-real-secret' },
      forcePathStyle: false,
      ...overrides,
    };
    // Signing happens on this machine: nothing is sent anywhere.
    const target = await createS3Storage(settings).createUploadTarget(
      { key: 'uploads/abc', byteSize: 3, contentType: 'text/plain', checksum: 'AAAA' },
      new Date(Date.now() + 60_000),
    );
    expect(new URL(target.url).origin).toBe(s3BrowserOrigin(settings));
  });
});
