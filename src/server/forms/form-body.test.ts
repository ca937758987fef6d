import { describe, expect, it } from 'vitest';
import { formBodyLimitBytes, uploadBodyLimitBytes } from '../../routes';
import { postedForm, submittedField } from './form-body';
import { BodyTooLargeError } from '../http/request-bodies';

const formType = { 'content-type': 'application/x-www-form-urlencoded' };

/** A request whose body arrives in `chunks` chunks of `chunkBytes`, without a declared length. */
function streamedPost(chunks: number, chunkBytes: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        controller.close();
        return;
      }
      sent += 1;
      controller.enqueue(new TextEncoder().encode('a'.repeat(chunkBytes)));
    },
  });
  return new Request('http://portal.test/sign-in', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: formType,
  } as RequestInit);
}

describe('postedForm', () => {
  it('reads the fields of a form post', async () => {
    const request = new Request('http://portal.test/', {
      method: 'POST',
      body: new URLSearchParams({ email: 'member@example.com', _xsrf: 'token' }),
    });
    expect(await submittedField(request, 'email')).toBe('member@example.com');
    expect(await submittedField(request, '_xsrf')).toBe('token');
  });

  it('leaves the body unread for the action that handles the post', async () => {
    const request = new Request('http://portal.test/', {
      method: 'POST',
      body: new URLSearchParams({ email: 'member@example.com' }),
    });
    await postedForm(request);
    expect((await request.formData()).get('email')).toBe('member@example.com');
  });

  it('refuses a body that grows past the limit while it is read', async () => {
    const request = streamedPost(Math.ceil(formBodyLimitBytes / 65_536) + 4, 65_536);
    await expect(postedForm(request)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('reads a form past the form limit when its route takes a file', async () => {
    const chunks = Math.ceil(formBodyLimitBytes / 65_536) + 4;
    const form = await postedForm(streamedPost(chunks, 65_536), uploadBodyLimitBytes);
    expect(form).toBeDefined();
  });

  it('reads a streamed body within the limit', async () => {
    const form = await postedForm(streamedPost(2, 1024));
    expect(form?.get('a'.repeat(2048))).toBe('');
  });

  it('gives nothing for a body that is not a form', async () => {
    const json = new Request('http://portal.test/', {
      method: 'POST',
      body: JSON.stringify({ email: 'member@example.com' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(await postedForm(json)).toBeUndefined();
    expect(await postedForm(new Request('http://portal.test/'))).toBeUndefined();
  });
});
