import { clientAddressHeader } from '../../lib/internal-headers';

/**
 * The address scripts/start.mjs worked out from the socket and the trusted proxies. Astro's
 * `clientAddress` believes the left-most `X-Forwarded-For` entry, which the client writes, so it
 * is read only by the development server, which has no such entry point and serves this machine.
 */
export function visitorAddress(context: {
  request: Request;
  clientAddress: string;
}): string | undefined {
  const address = context.request.headers.get(clientAddressHeader);
  if (address) return address;
  if (!import.meta.env.DEV) return undefined;
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}
