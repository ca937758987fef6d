import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ReadAuthnRequest } from './saml-bindings.ts';

/**
 * The pages of the test SAML identity provider: its login page, the HTTP-POST binding's page that
 * takes the Response to the service provider, and its error pages; and the headers they are sent
 * with (no script but the POST binding's own, no framing, no referrer).
 */

const AUTO_SUBMIT = 'document.forms[0].submit()';
const AUTO_SUBMIT_HASH = createHash('sha256').update(AUTO_SUBMIT).digest('base64');

export function page(title: string, body: string, after = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${after}</body>
</html>
`;
}

export function loginPage(
  name: string,
  pendingId: string,
  error: string | undefined,
  email: string,
): string {
  return page(
    name,
    `${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>\n`}<form method="post" action="/sso/login">
<input type="hidden" name="pending" value="${escapeHtml(pendingId)}">
<p><label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><input id="security-key" name="securityKey" type="checkbox" value="yes">
<label for="security-key">I also used my security key</label></p>
<p><button type="submit" name="action" value="sign-in">Sign in</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></p>
</form>`,
  );
}

/** The HTTP-POST binding: a form to the ACS, sent by script, or by its button without one. */
export function postBindingPage(
  name: string,
  acsUrl: string,
  samlResponse: string,
  request: ReadAuthnRequest,
): string {
  const relayState =
    request.relayState === undefined
      ? ''
      : `<input type="hidden" name="RelayState" value="${escapeHtml(request.relayState)}">\n`;
  return page(
    name,
    `<p>Taking you back to the service…</p>
<form method="post" action="${escapeHtml(acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
${relayState}<button type="submit">Continue</button>
</form>`,
    `<script>${AUTO_SUBMIT}</script>\n`,
  );
}

export function send(
  response: ServerResponse,
  status: number,
  html: string,
  options: { autoSubmit?: boolean } = {},
): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    // form-action stays open on the POST binding's page: its form goes to the service provider.
    'content-security-policy': options.autoSubmit
      ? `default-src 'none'; script-src 'sha256-${AUTO_SUBMIT_HASH}'; base-uri 'none'; frame-ancestors 'none'`
      : "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  });
  response.end(html);
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
