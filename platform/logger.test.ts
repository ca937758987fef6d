import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, currentRequestId, requestIdFor, withRequestId } from './logger.ts';

/** A logger whose lines land in an array, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { log: createLogger(destination, 'info'), lines };
}

describe('the logger', () => {
  it('writes one JSON object per line with the level by name, the time and the message', () => {
    const { log, lines } = capturingLogger();
    log.info({ status: 200 }, 'request');
    expect(lines).toEqual([
      { level: 'info', time: expect.any(String) as unknown, status: 200, msg: 'request' },
    ]);
  });

  it('adds the id of the request being served to every line written while serving it', async () => {
    const { log, lines } = capturingLogger();
    await withRequestId('req-12345678', async () => {
      log.info('first');
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.warn('after waiting');
    });
    log.info('outside');
    expect(lines.map((line) => line.requestId)).toEqual([
      'req-12345678',
      'req-12345678',
      undefined,
    ]);
    expect(currentRequestId()).toBeUndefined();
  });

  it('never writes passwords, codes, tokens or credentials headers', () => {
    const { log, lines } = capturingLogger();
    log.info(
      {
        user: { email: 'a@example.com', password: 'hunter2-secret' },
        code: '123456',
        body: { user: { password_confirmation: 'hunter2-secret' } },
        token: 'tok',
        headers: { authorization: 'Bearer abc', cookie: 'session=abc', 'mfa-token': 'def' },
      },
      'payload',
    );
    const written = JSON.stringify(lines);
    for (const secret of ['hunter2-secret', '123456', 'tok"', 'Bearer abc', 'session=abc', 'def']) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain('a@example.com');
  });

  it('finds secrets at any depth, in arrays and in the fields of errors, and keeps the error', () => {
    const { log, lines } = capturingLogger();
    const error = Object.assign(new TypeError('the call failed'), {
      response: { headers: { 'set-cookie': 'session=deep' } },
    });
    const logged = {
      calls: [{ request: { body: { user: { otp: '654321' } } } }],
      err: error,
      headers: { 'x-xsrf-token': 'xsrf-secret', accept: 'text/html' },
    };
    log.error(logged, 'failed');
    const written = JSON.stringify(lines);
    for (const secret of ['654321', 'session=deep', 'xsrf-secret']) {
      expect(written).not.toContain(secret);
    }
    expect(lines[0]?.err).toMatchObject({
      type: 'TypeError',
      message: 'the call failed',
      stack: expect.stringContaining('the call failed') as unknown,
    });
    expect(written).toContain('text/html');
    // What the caller logged is theirs: only the written copy is censored.
    expect(logged.headers['x-xsrf-token']).toBe('xsrf-secret');
    expect(error.response.headers['set-cookie']).toBe('session=deep');
  });
});

describe('requestIdFor', () => {
  it('makes a new id when the caller is not a trusted proxy, whatever it sent', () => {
    const id = requestIdFor('chosen-by-visitor', false);
    expect(id).not.toBe('chosen-by-visitor');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a trusted proxy's id when it looks like one", () => {
    expect(requestIdFor('lb-0123456789', true)).toBe('lb-0123456789');
    expect(requestIdFor('bad id with spaces', true)).not.toBe('bad id with spaces');
    expect(requestIdFor(undefined, true)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
