import { defineMiddleware } from 'astro:middleware';
import { ApiClient } from '../api/client';
import { apiEndpoint } from '../api/transport';
import { config } from '../config';
import { takeFlash } from '../session/flash';
import { readSession } from '../session/session';
import { visitorAddress } from '../http/visitor-address';

/**
 * Reads the session cookies, gives the request an API client with this
 * visitor's credentials, address and browser, and hands over the toasts that crossed a
 * redirect to the page being shown.
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
          // Read at each call: an action that renews the session's mfa token (a second factor
          // confirmed) leaves the page it renders calling with the new one.
          credentials: {
            get token() {
              return locals.session.token;
            },
            get mfaToken() {
              return locals.session.mfaToken;
            },
          },
          clientAddress: visitorAddress(context),
          userAgent: request.headers.get('user-agent') ?? undefined,
          timeoutMs: config().apiTimeoutMs,
        }),
    );
    return client;
  };

  const isPageView =
    request.method === 'GET' && locals.route.kind === 'page' && !locals.route.route.endpoint;
  locals.flash = isPageView ? takeFlash(cookies) : [];
  return next();
});
