import { defineMiddleware } from 'astro:middleware';
import { clientAddressHeader } from '../../lib/internal-headers';
import { ApiClient } from '../api-client';
import { apiEndpoint } from '../api-transport';
import { config } from '../config';
import { takeFlash } from '../flash';
import { readSession } from '../session';

/**
 * Reads the session cookies, gives the request an API client with this
 * visitor's credentials and address, and hands over the toasts that crossed a
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
          credentials: { token: locals.session.token, mfaToken: locals.session.mfaToken },
          clientAddress: visitorAddress(context),
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

/**
 * The address scripts/start.mjs worked out from the socket and the trusted proxies. Astro's
 * `clientAddress` believes the left-most `X-Forwarded-For` entry, which the client writes, so it
 * is read only by the development server, which has no such entry point and serves this machine.
 */
function visitorAddress(context: { request: Request; clientAddress: string }): string | undefined {
  const address = context.request.headers.get(clientAddressHeader);
  if (address) return address;
  if (!import.meta.env.DEV) return undefined;
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}
