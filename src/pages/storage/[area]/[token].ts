import type { APIRoute } from 'astro';
import { apiEndpoint } from '../../../server/api/transport';
import { config } from '../../../server/config';
import { passToStorage } from '../../../server/http/storage-pass-through';
import { visitorAddress } from '../../../server/http/visitor-address';

/**
 * The API's file storage on the site's own origin: signed upload and download addresses, handed to
 * the API, the embedded one or the one at API_ORIGIN, as they came, the body streamed through, and
 * its answer handed back. Only the API judges them: the signature in the address is the guard. So
 * the browser talks to this origin alone (the page's `connect-src 'self'`), whichever way the API
 * is run.
 */
const toStorage: APIRoute = async (context) => {
  const { transport, baseUrl } = await apiEndpoint();
  return passToStorage(context.request, {
    transport,
    baseUrl,
    visitorAddress: visitorAddress(context),
    timeoutMs: config().apiTimeoutMs,
  });
};

export const GET = toStorage;
export const HEAD = toStorage;
export const PUT = toStorage;
export const OPTIONS = toStorage;
