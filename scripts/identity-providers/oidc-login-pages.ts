import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * The pages of the test OpenID Connect provider (oidc-identity-provider.ts): the login page and
 * the error pages, with the headers they are sent with (no script, frame or foreign style), and
 * the reading of the login form they post back.
 */

const formBodyLimit = 16 * 1024;

/** The urlencoded body, or `undefined` once it has answered that the body is not one. */
export async function readForm(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<URLSearchParams | undefined> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    response.writeHead(415, { 'content-length': '0', connection: 'close' });
    response.end();
    return undefined;
  }
  if (Number(request.headers['content-length'] ?? 0) > formBodyLimit) {
    response.writeHead(413, { 'content-length': '0', connection: 'close' });
    response.end();
    return undefined;
  }
  const body = await new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= formBodyLimit) chunks.push(chunk);
    });
    request.on('end', () => {
      resolve(size <= formBodyLimit ? Buffer.concat(chunks).toString('utf8') : undefined);
    });
    request.on('error', reject);
  });
  if (body === undefined) {
    response.writeHead(413, { 'content-length': '0', connection: 'close' });
    response.end();
    return undefined;
  }
  return new URLSearchParams(body);
}

const style = `
      body { font: 1rem/1.5 system-ui, sans-serif; color: #1a1a1a; background: #f4f4f4; margin: 0; }
      main { max-width: 24rem; margin: 3rem auto; padding: 1.5rem 2rem; background: #fff; border: 1px solid #ccc; border-radius: 0.5rem; }
      h1 { font-size: 1.5rem; margin: 0 0 1rem; }
      label { display: block; font-weight: 600; }
      input[type='email'], input[type='password'] { box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit; border: 1px solid #666; border-radius: 0.25rem; }
      .check label { display: inline; font-weight: normal; }
      button { font: inherit; padding: 0.5rem 1rem; }
      [role='alert'] { color: #a00000; border-left: 0.25rem solid #a00000; padding-left: 0.5rem; }
    `;

const styleHash = createHash('sha256').update(style).digest('base64');

/**
 * No script, frame or foreign style is ever needed. No form-action either: browsers apply it to
 * the redirects that follow the sign-in, on to the client's redirect URI.
 */
export function setPageHeaders(set: (field: string, value: string) => void): void {
  set(
    'content-security-policy',
    `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; frame-ancestors 'none'`,
  );
  set('cache-control', 'no-store');
  set('x-content-type-options', 'nosniff');
  set('referrer-policy', 'no-referrer');
}

export function sendPage(response: ServerResponse, status: number, html: string): void {
  const headers: OutgoingHttpHeaders = {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
  };
  setPageHeaders((field, value) => {
    headers[field] = value;
  });
  response.writeHead(status, headers);
  response.end(html);
}

export function page(name: string, content: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(name)}</title>
    <style>${style}</style>
  </head>
  <body>
    <main>
      <h1>${escapeHtml(name)}</h1>
      ${content}
    </main>
  </body>
</html>
`;
}

export function loginPage(name: string, uid: string, email: string, error?: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return page(
    name,
    `${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>`}
      <form method="post" action="${action}/login">
        <p>
          <label for="email">Email address</label>
          <input id="email" type="email" name="email" autocomplete="username" required value="${escapeHtml(email)}">
        </p>
        <p>
          <label for="password">Password</label>
          <input id="password" type="password" name="password" autocomplete="current-password" required>
        </p>
        <p class="check">
          <input id="second_step" type="checkbox" name="second_step" value="yes">
          <label for="second_step">I also used my security key</label>
        </p>
        <p><button type="submit">Sign in</button></p>
      </form>
      <form method="post" action="${action}/abort">
        <p><button type="submit">Cancel</button></p>
      </form>`,
  );
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
