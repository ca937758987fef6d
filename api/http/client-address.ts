import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

export const UNKNOWN_CLIENT_ADDRESS = 'unknown';

/**
 * The address of the client that sent a request, for rate limits (docs/PRODUCT.md §11).
 *
 * `trustedProxies` is how many proxies the operator runs in front of this server, each appending
 * the address it saw to `X-Forwarded-For`. Counting that many hops back from the socket gives the
 * client; every entry further left was written by the client itself and is never read. With no
 * trusted proxy the socket address is the only truth. A hop that is not an IP address (a proxy
 * that writes something else) falls back to the socket address.
 *
 * Shared by the API and the web server's entry point (`scripts/start.mjs`), so both read the
 * `TRUSTED_PROXIES` setting the same way.
 */
export function clientAddressFrom(
  socketAddress: string | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: number,
): string | undefined {
  if (trustedProxies <= 0 || !forwardedFor) return socketAddress;
  const forwarded = forwardedFor.split(',').map((entry) => entry.trim());
  // The socket is the nearest hop; with fewer hops than proxies, the furthest one is the client.
  const hops = [...forwarded, socketAddress];
  const client = hops[Math.max(0, hops.length - 1 - trustedProxies)];
  return client && isIP(client) !== 0 ? client : socketAddress;
}

/**
 * The key a rate limit counts an address under. One IPv6 subscriber usually holds a whole /64,
 * so its addresses share one bucket; an IPv4 address written as IPv6 (`::ffff:192.0.2.1`) is
 * the IPv4 address.
 */
export function rateLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const mappedIpv4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mappedIpv4) return mappedIpv4;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case without leading zeros. */
function expandIpv6(address: string): string[] {
  const withoutZone = address.split('%')[0] ?? address;
  const [head = '', tail] = withoutZone.toLowerCase().split('::');
  const groups = (part: string | undefined) =>
    part
      ? part.split(':').flatMap((group) => (group.includes('.') ? ipv4Groups(group) : group))
      : [];
  const left = groups(head);
  const right = groups(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

function ipv4Groups(dotted: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** {@link clientAddressFrom} for a request the API received, as its rate-limit key. */
export function clientAddress(c: Context, trustedProxies: number): string {
  const address = clientAddressFrom(
    socketAddress(c),
    c.req.header('x-forwarded-for'),
    trustedProxies,
  );
  return address ? rateLimitKey(address) : UNKNOWN_CLIENT_ADDRESS;
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Called in-process (app.fetch or app.request) there is no socket to ask.
    return undefined;
  }
}
