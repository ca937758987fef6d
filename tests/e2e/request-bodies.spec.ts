import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { newFormVisitor } from './support/forms';
import { anonymousVisitor, newSignedInMember } from './support/http-visitor';

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

/**
 * Sends the head of a chunked request and its first chunk, never the rest, and returns the head
 * of the answer: a server that reads the body before it answers never answers.
 */
function answerBeforeBodyEnds(
  origin: string,
  path: string,
  headers: Record<string, string>,
  patienceMs = 10_000,
): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.setTimeout(patienceMs, () => {
      socket.destroy();
      reject(new Error(`No answer within ${patienceMs} ms`));
    });
    socket.once('error', reject);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (!answer.includes('\r\n\r\n')) return;
      resolve(answer.split('\r\n\r\n')[0] ?? '');
      socket.destroy();
    });
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const firstChunk = `--form\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\n${head}` +
        `Transfer-Encoding: chunked\r\n\r\n${firstChunk.length.toString(16)}\r\n${firstChunk}\r\n`,
    );
  });
}

/**
 * Sends a chunked request one chunk at a time, as long as the server takes them, and returns the
 * head of its answer. The socket is our own: a server that answers and closes before the last
 * chunk is a refusal read, not a failed test (fetch would throw on the write it cut short).
 */
function answerToChunkedBody(
  origin: string,
  path: string,
  headers: Record<string, string>,
  chunks: string[],
): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let answered = false;
    socket.setTimeout(15_000, () => {
      socket.destroy();
      reject(new Error('No answer within 15 s'));
    });
    socket.on('error', (error) => {
      if (!answered) reject(error);
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answered || !answer.includes('\r\n\r\n')) return;
      answered = true;
      resolve(answer.split('\r\n\r\n')[0] ?? '');
      socket.destroy();
    });
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\n${head}` +
        `Transfer-Encoding: chunked\r\n\r\n`,
    );
    const sendFrom = (index: number): void => {
      if (answered || socket.destroyed) return;
      const chunk = chunks[index];
      if (chunk === undefined) {
        socket.write('0\r\n\r\n');
        return;
      }
      const framed = `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
      const next = () => {
        sendFrom(index + 1);
      };
      if (socket.write(framed)) setImmediate(next);
      else socket.once('drain', next);
    };
    sendFrom(0);
  });
}

const multipart = 'multipart/form-data; boundary=form';

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

test('a post without a session declaring 20 MB to a page that takes files is refused at once', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  for (const path of ['/dashboard', '/requests/1', '/requests/category/1']) {
    expect(await statusForDeclaredLength(origin, `${path}?_action=requests.create`, 20e6)).toBe(
      'HTTP/1.1 413 Payload Too Large',
    );
  }
});

test('a post without a session to a page only members see goes to sign in, its body unread', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const visitor = await anonymousVisitor(origin);
  const answer = await answerBeforeBodyEnds(origin, '/dashboard?_action=requests.create', {
    cookie: visitor.cookieHeader(),
    'content-type': multipart,
  });
  expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 303 See Other');
  expect(answer).toMatch(/\r\nlocation: \/sign-in\r\n/i);
});

test('a member may send a page that takes files more than a form, and it is read', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const member = await newSignedInMember(origin);
  // The member's post is read in full (no answer before its end), unlike a stranger's above.
  await expect(
    answerBeforeBodyEnds(
      origin,
      '/dashboard?_action=requests.create',
      { cookie: member.cookieHeader(), 'content-type': multipart },
      3_000,
    ),
  ).rejects.toThrow('No answer within 3000 ms');
});

test('an action call sent in chunks is cut at the form limit with 413, not read whole', async ({
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const visitor = await anonymousVisitor(origin);
  // 5 MB in chunks, then the end: the size is known only by reading.
  const chunks = [
    ...Array.from({ length: 80 }, () => `email=${'a'.repeat(64 * 1024)}&`),
    'password=x',
  ];
  const head = await answerToChunkedBody(
    origin,
    '/_actions/auth.signIn/',
    {
      cookie: visitor.cookieHeader(),
      'x-xsrf-token': visitor.xsrfToken(),
      'content-type': 'application/x-www-form-urlencoded',
    },
    chunks,
  );
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
});

test('a form of ordinary size still goes through', async ({ baseURL }) => {
  const origin = baseURL ?? '';
  const visitor = await newFormVisitor(origin);
  const status = await visitor.signIn({ email: 'someone@example.com', password: 'x'.repeat(100) });
  expect(status).toBe(401);
  await visitor.dispose();
});
