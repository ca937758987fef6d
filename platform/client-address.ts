import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { TrustedProxies } from './trusted-proxies.ts';

export const UNKNOWN_CLIENT_ADDRESS = 'unknown';

/**
 * The address of the client that sent a request, for rate limits.
 *
 * Each proxy appends the address it saw to `X-Forwarded-For`, so the header is read from the
 * right, starting at the socket: while the hop in hand is a trusted proxy, the entry to its left
 * is what that proxy saw. The first hop that is not a trusted proxy is the client; anything
 * further left it wrote itself. A socket that is not a trusted proxy is the client, whatever it
 * sent. An entry that is not an IP address ends the walk at the last trusted proxy, so a
 * malformed header never becomes an address (and never a bucket of its own).
 *
 * Shared by the API and the web server's entry point (`scripts/start.mjs`), so both read the
 * `TRUSTED_PROXIES` setting the same way.
 */
export function clientAddressFrom(
  socketAddress: string | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: TrustedProxies,
): string | undefined {
  let client = socketAddress;
  if (!forwardedFor || !trustedProxies.trusts(client)) return client;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]?.trim() ?? '';
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!trustedProxies.trusts(hop)) return client;
  }
  // Every hop was a proxy: the furthest one is all there is to know.
  return client;
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

/**
 * The network an address belongs to, as coarse as Devices and Activity may show it: an IPv4 /24
 * (`203.0.113.0/24`) or an IPv6 /48 (`2001:db8:1::/48`), never the address itself.
 */
export function networkOf(address: string): string | null {
  const kind = isIP(address);
  if (kind === 0) return null;
  const ipv4 = kind === 4 ? address : /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (ipv4) return `${ipv4.split('.').slice(0, 3).join('.')}.0/24`;
  return `${expandIpv6(address).slice(0, 3).join(':')}::/48`;
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
export function clientAddress(c: Context, trustedProxies: TrustedProxies): string {
  const address = clientAddressFrom(
    socketAddress(c),
    c.req.header('x-forwarded-for'),
    trustedProxies,
  );
  return address ? rateLimitKey(address) : UNKNOWN_CLIENT_ADDRESS;
}

/** Whether the API's caller itself (the socket, not a header) is one of the trusted proxies. */
export function isFromTrustedProxy(c: Context, trustedProxies: TrustedProxies): boolean {
  return trustedProxies.trusts(socketAddress(c));
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Called in-process (app.fetch or app.request) there is no socket to ask.
    return undefined;
  }
}

/** The longest `User-Agent` kept with a session or an event; longer ones are cut. */
export const USER_AGENT_KEPT_LENGTH = 512;

/**
 * Where a request came from, as the account keeps it (sessions, security events): the client's
 * network ({@link networkOf}) and its `User-Agent` (which the web server passes on as it is).
 */
export interface RequestOrigin {
  network: string | null;
  userAgent: string | null;
}

/** {@link RequestOrigin} of a request the API received. */
export function requestOrigin(c: Context, trustedProxies: TrustedProxies): RequestOrigin {
  const address = clientAddressFrom(
    socketAddress(c),
    c.req.header('x-forwarded-for'),
    trustedProxies,
  );
  const userAgent = c.req.header('user-agent')?.trim().slice(0, USER_AGENT_KEPT_LENGTH);
  return { network: address ? networkOf(address) : null, userAgent: userAgent || null };
}
