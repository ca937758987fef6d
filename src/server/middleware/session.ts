import { defineMiddleware } from 'astro:middleware';
import { ApiClient } from '../api-client';
import { apiEndpoint } from '../api-transport';
import { config } from '../config';
import { xsrfCookieName } from '../cookies';
import { takeFlash } from '../flash';
import { sessionSecret } from '../secret';
import { readSession } from '../session';
import { isWellSignedXsrfToken, issueXsrfToken } from '../xsrf';

/**
 * Reads the session cookies, gives the request an API client with this
 * visitor's credentials, makes sure the browser holds a valid XSRF token, and
 * hands over the toasts that crossed a redirect to the page being shown.
 */
export const session = defineMiddleware((context, next) => {
  const { cookies, locals, request } = context;
  locals.session = readSession(cookies);

  let client: Promise<ApiClient> | undefined;
  locals.api = () => {
    client ??= apiEndpoint().then(
      ({ transport, baseUrl }) =>
        new ApiClient({
          transport,
          baseUrl,
          credentials: { token: locals.session.token, mfaToken: locals.session.mfaToken },
          clientAddress: safeClientAddress(context),
        }),
    );
    return client;
  };

  const secret = sessionSecret();
  const existing = cookies.get(xsrfCookieName)?.value;
  if (existing && isWellSignedXsrfToken(existing, secret)) {
    locals.xsrfToken = existing;
  } else {
    locals.xsrfToken = issueXsrfToken(secret);
    cookies.set(xsrfCookieName, locals.xsrfToken, {
      path: '/',
      sameSite: 'lax',
      secure: config().secureCookies,
      // Readable by the islands on purpose: they echo it in the X-XSRF-TOKEN header.
      httpOnly: false,
    });
  }

  const isPageView = request.method === 'GET' && locals.route.kind === 'page';
  locals.flash = isPageView ? takeFlash(cookies) : [];
  return next();
});

function safeClientAddress(context: { clientAddress: string }): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}
