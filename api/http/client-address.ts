import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

export const UNKNOWN_CLIENT_ADDRESS = 'unknown';

/**
 * The address of the client, for rate limits. `X-Forwarded-For` is read only when the operator
 * declared a trusted proxy in front of the API (`trustProxy`); otherwise any client could choose
 * its own address. Its right-most entry is used: that is the one the trusted proxy itself saw,
 * whereas entries to its left were written by the client.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const nearest = forwarded?.split(',').at(-1)?.trim();
    if (nearest && isIP(nearest) !== 0) return nearest;
  }
  return socketAddress(c) ?? UNKNOWN_CLIENT_ADDRESS;
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Called in-process (app.fetch or app.request) there is no socket to ask.
    return undefined;
  }
}
