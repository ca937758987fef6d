import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { newFormVisitor } from './support/forms';

/**
 * Sends only the head of a request that declares a body of `length` bytes, and returns the
 * status line of the answer: a server that reads before it refuses never answers.
 */
function statusForDeclaredLength(origin: string, path: string, length: number): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error('No answer within 10 s'));
    });
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`,
    );
  });
}

test('a form post declaring 200 MB is refused at once, before any of it is read', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  expect(await statusForDeclaredLength(origin, '/sign-in?_action=auth.signIn', 200e6)).toBe(
    'HTTP/1.1 413 Payload Too Large',
  );
});

test('a form post larger than a form takes is refused with 413, not read for its token', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  expect(await statusForDeclaredLength(origin, '/_actions/auth.signIn/', 300 * 1024)).toBe(
    'HTTP/1.1 413 Payload Too Large',
  );
});

test('a form sent in chunks is refused once it grows larger than a form takes', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const visitor = await newFormVisitor(origin);
  const token = await visitor.xsrfToken();
  const cookie = `XSRF-TOKEN=${token}`;
  const chunk = new TextEncoder().encode(`email=${'a'.repeat(64 * 1024)}&`);
  let sent = 0;
  // No Content-Length: the size is known only by reading.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 16) {
        controller.enqueue(new TextEncoder().encode(`_xsrf=${token}`));
        controller.close();
        return;
      }
      sent += 1;
      controller.enqueue(chunk);
    },
  });

  const response = await fetch(`${origin}/sign-in?_action=auth.signIn`, {
    method: 'POST',
    headers: {
      origin,
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body,
    duplex: 'half',
    redirect: 'manual',
  } as RequestInit);

  expect(response.status).toBe(413);
  expect(await response.text()).toContain('larger than this page takes');
  await visitor.dispose();
});

test('a form of ordinary size still goes through', async ({ baseURL }) => {
  const origin = baseURL ?? '';
  const visitor = await newFormVisitor(origin);
  const status = await visitor.signIn({ email: 'someone@example.com', password: 'x'.repeat(100) });
  expect(status).toBe(401);
  await visitor.dispose();
});
