import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  UploadError,
  logUploadFailure,
  networkFailureHint,
  startUpload,
  uploadHeaders,
} from './upload-file';
import { FakeRequest } from './fake-request';

function upload(file: File, extra: Partial<Parameters<typeof startUpload>[0]> = {}) {
  const fake = new FakeRequest();
  const handle = startUpload(
    { file, url: 'https://storage.example/put', ...extra },
    () => fake as unknown as XMLHttpRequest,
  );
  return { fake, handle };
}

const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });

describe('startUpload', () => {
  it('sends the raw file with PUT, no credentials and no timeout', () => {
    const { fake } = upload(file);
    expect(fake.method).toBe('PUT');
    expect(fake.url).toBe('https://storage.example/put');
    expect(fake.body).toBe(file);
    expect(fake.withCredentials).toBe(false);
    expect(fake.timeout).toBe(0);
    expect(fake.headers).toEqual([['Content-Type', 'text/plain']]);
  });

  it('uses the method it is given', () => {
    expect(upload(file, { method: 'POST' }).fake.method).toBe('POST');
  });

  it('reports progress in whole percent', () => {
    const onProgress = vi.fn();
    const { fake } = upload(file, { onProgress });
    fake.progress(1, 3);
    fake.progress(2, 3);
    expect(onProgress.mock.calls).toEqual([[33], [67]]);
  });

  it('succeeds on any 2xx status', async () => {
    const { fake, handle } = upload(file);
    fake.finish(204);
    await expect(handle.done).resolves.toBe(204);
  });

  it('fails on another status with the file name, status, status text and response text', async () => {
    const { fake, handle } = upload(file);
    fake.finish(500, 'Internal Server Error', 'bucket full');
    const error = await handle.done.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({
      kind: 'status',
      fileName: 'notes.txt',
      status: 500,
      statusText: 'Internal Server Error',
      responseText: 'bucket full',
      message: 'Upload of "notes.txt" failed: 500 Internal Server Error bucket full',
    });
  });

  it('fails with a hint on a network error', async () => {
    const { fake, handle } = upload(file);
    fake.fire('error');
    await expect(handle.done).rejects.toMatchObject({
      kind: 'network',
      message: networkFailureHint('notes.txt'),
    });
  });

  it('fails as aborted when aborted', async () => {
    const { fake, handle } = upload(file);
    handle.abort();
    expect(fake.aborted).toBe(true);
    await expect(handle.done).rejects.toMatchObject({ kind: 'abort' });
  });
});

describe('uploadHeaders', () => {
  it('sends application/octet-stream for a file of unknown type', () => {
    expect(uploadHeaders({ type: '' })).toEqual({ 'Content-Type': 'application/octet-stream' });
  });

  it('lets the storage headers replace the content type whatever their case', () => {
    expect(
      uploadHeaders({ type: 'text/plain' }, { 'content-type': 'x/y', 'Content-MD5': 'abc' }),
    ).toEqual({
      'content-type': 'x/y',
      'Content-MD5': 'abc',
    });
  });
});

describe('networkFailureHint', () => {
  it('points at the connection, the bucket cross-origin settings and the address', () => {
    const hint = networkFailureHint('a.pdf');
    expect(hint).toContain('connection');
    expect(hint).toContain('cross-origin');
    expect(hint).toContain('address');
  });
});

describe('logUploadFailure', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('only warns about an abort', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    logUploadFailure(new UploadError('abort', 'aborted'));
    expect(warn).toHaveBeenCalledWith('aborted');
    expect(error).not.toHaveBeenCalled();
  });

  it('logs other failures as errors', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new UploadError('network', 'no network');
    logUploadFailure(failure);
    expect(error).toHaveBeenCalledWith(failure);
  });
});
