import { describe, expect, it } from 'vitest';
import { bodyToMessage, wholeBodyLimitBytes } from './embedded-thread-messages.ts';

const streamOf = (size: number) => new Blob([new Uint8Array(size)]).stream();
const put = (headers: Record<string, string>, size: number) =>
  new Request('http://embedded-api.internal/storage/uploads/t', {
    method: 'PUT',
    headers,
    body: streamOf(size),
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });

describe('bodyToMessage', () => {
  it('sends a small declared body whole, as bytes moved to the other thread', async () => {
    const { body, transfer } = await bodyToMessage(put({ 'content-length': '10' }, 10));
    expect(body).toBeInstanceOf(ArrayBuffer);
    expect(transfer).toEqual([body]);
  });

  it('streams a request that only says it is JSON: a file to storage may claim any type', async () => {
    const claimed = put({ 'content-type': 'application/json' }, wholeBodyLimitBytes + 1);
    const { body } = await bodyToMessage(claimed);
    expect(body).toBeInstanceOf(ReadableStream);
  });

  it('streams a body declared larger than the limit, and sends none for no body', async () => {
    const large = put({ 'content-length': String(wholeBodyLimitBytes + 1) }, 1);
    expect((await bodyToMessage(large)).body).toBeInstanceOf(ReadableStream);
    expect(await bodyToMessage(new Request('http://embedded-api.internal/'))).toEqual({
      body: null,
      transfer: [],
    });
  });

  it('sends the API’s own JSON answer whole, whatever its length', async () => {
    const { body } = await bodyToMessage(Response.json({ requests: [] }));
    expect(body).toBeInstanceOf(ArrayBuffer);
  });
});
