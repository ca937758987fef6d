import type { APIRoute } from 'astro';
import { clientAddressHeader } from '../../../lib/internal-headers';
import { apiEndpoint } from '../../../server/api-transport';
import { config } from '../../../server/config';

/**
 * The embedded API's file storage on the site's own origin (docs/PRODUCT.md §7.2.1, §10): signed
 * upload and download addresses, handed to the API in-process as they came, the body streamed
 * through, and its answer handed back. Only the API judges them: the signature in the address is
 * the guard. With API_ORIGIN set the API serves its storage itself, and this path is not found.
 */
const toEmbeddedStorage: APIRoute = async (context) => {
  if (config().apiOrigin) return context.rewrite('/404');
  const { request, url } = context;
  const { transport, baseUrl } = await apiEndpoint();

  const headers = new Headers(request.headers);
  // Storage takes no credentials, and the visitor's address is the one the entry point worked
  // out, never one the client wrote (the web server is the embedded API's one trusted proxy).
  headers.delete('cookie');
  headers.delete('x-forwarded-for');
  const visitor = request.headers.get(clientAddressHeader);
  headers.delete(clientAddressHeader);
  if (visitor) headers.set('x-forwarded-for', visitor);

  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  const answer = await transport(
    new Request(new URL(`${url.pathname}${url.search}`, baseUrl), {
      method: request.method,
      headers,
      ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
      signal: request.signal,
    }),
  );
  // A copy with headers of its own: the security headers are added to it on the way out.
  return new Response(answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: new Headers(answer.headers),
  });
};

export const GET = toEmbeddedStorage;
export const HEAD = toEmbeddedStorage;
export const PUT = toEmbeddedStorage;
export const OPTIONS = toEmbeddedStorage;
