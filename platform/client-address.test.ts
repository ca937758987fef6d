import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  clientAddressFrom,
  isFromTrustedProxy,
  networkOf,
  rateLimitKey,
  requestOrigin,
} from './client-address.ts';
import { TrustedProxies } from './trusted-proxies.ts';

function trusting(list: string): TrustedProxies {
  const parsed = TrustedProxies.parse(list);
  if (!(parsed instanceof TrustedProxies)) throw new Error(parsed.problem);
  return parsed;
}

const loadBalancers = trusting('10.0.0.0/8');

/** What the API makes of a request from `socketAddress` (none: called in-process). */
async function addressSeenBy(
  trustedProxies: TrustedProxies,
  forwardedFor?: string,
  socketAddress?: string,
): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustedProxies)));
  const headers: Record<string, string> = forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {};
  // What @hono/node-server hands the app: the Node request, whose socket knows the peer.
  const env = socketAddress ? { incoming: { socket: { remoteAddress: socketAddress } } } : {};
  return (await app.request('/', { headers }, env)).text();
}

describe('clientAddressFrom', () => {
  it('is the socket address when no proxy is trusted, whatever the client writes', () => {
    expect(clientAddressFrom('192.0.2.10', '198.51.100.77', TrustedProxies.none)).toBe(
      '192.0.2.10',
    );
    expect(clientAddressFrom('192.0.2.10', '203.0.113.5, 127.0.0.1', TrustedProxies.none)).toBe(
      '192.0.2.10',
    );
  });

  it('ignores X-Forwarded-For from a socket that is not a trusted proxy', () => {
    expect(clientAddressFrom('203.0.113.5', '198.51.100.7', loadBalancers)).toBe('203.0.113.5');
    expect(clientAddressFrom('203.0.113.5', '198.51.100.7, 10.0.0.2', loadBalancers)).toBe(
      '203.0.113.5',
    );
  });

  it('takes the entry the trusted proxy added, never the ones the client wrote', () => {
    expect(clientAddressFrom('10.0.0.2', '203.0.113.5, 198.51.100.7', loadBalancers)).toBe(
      '198.51.100.7',
    );
    expect(clientAddressFrom('10.0.0.2', '198.51.100.7', loadBalancers)).toBe('198.51.100.7');
  });

  it('walks back through every trusted proxy to the first address that is not one', () => {
    expect(
      clientAddressFrom('10.0.0.3', '203.0.113.5, 198.51.100.7, 10.0.0.2', loadBalancers),
    ).toBe('198.51.100.7');
  });

  it('stops at the first untrusted hop even when the client wrote a trusted address before it', () => {
    expect(clientAddressFrom('10.0.0.3', '10.9.9.9, 198.51.100.7', loadBalancers)).toBe(
      '198.51.100.7',
    );
  });

  it('takes the furthest hop when every hop is a trusted proxy', () => {
    expect(clientAddressFrom('10.0.0.3', '10.0.0.1, 10.0.0.2', loadBalancers)).toBe('10.0.0.1');
  });

  it('matches an IPv4 socket address written as IPv6 against IPv4 entries', () => {
    expect(clientAddressFrom('::ffff:10.0.0.2', '198.51.100.7', loadBalancers)).toBe(
      '198.51.100.7',
    );
    expect(clientAddressFrom('::ffff:127.0.0.1', '198.51.100.7', trusting('loopback'))).toBe(
      '198.51.100.7',
    );
  });

  it('trusts IPv6 proxies by address and by network', () => {
    const proxies = trusting('::1,fd00::/8');
    expect(clientAddressFrom('::1', '2001:db8::7', proxies)).toBe('2001:db8::7');
    expect(clientAddressFrom('fd12::3', '2001:db8::7, fd00::1', proxies)).toBe('2001:db8::7');
    expect(clientAddressFrom('2001:db8::9', '2001:db8::7', proxies)).toBe('2001:db8::9');
  });

  it('ends the walk at the last trusted proxy when a hop is not an address', () => {
    expect(clientAddressFrom('10.0.0.2', 'evil, not-an-ip', loadBalancers)).toBe('10.0.0.2');
    expect(clientAddressFrom('10.0.0.3', '198.51.100.7, garbage, 10.0.0.2', loadBalancers)).toBe(
      '10.0.0.2',
    );
    expect(clientAddressFrom('10.0.0.2', '198.51.100.7:4711', loadBalancers)).toBe('10.0.0.2');
    expect(clientAddressFrom('10.0.0.2', ' , ', loadBalancers)).toBe('10.0.0.2');
    expect(clientAddressFrom('10.0.0.2', undefined, loadBalancers)).toBe('10.0.0.2');
  });

  it('treats an in-process caller as a proxy only when told to', () => {
    expect(clientAddressFrom(undefined, '198.51.100.7', TrustedProxies.thisProcess)).toBe(
      '198.51.100.7',
    );
    expect(clientAddressFrom(undefined, '198.51.100.7', loadBalancers)).toBeUndefined();
    expect(clientAddressFrom('10.0.0.2', '198.51.100.7', TrustedProxies.thisProcess)).toBe(
      '10.0.0.2',
    );
  });
});

describe('rateLimitKey', () => {
  it('keeps an IPv4 address whole', () => {
    expect(rateLimitKey('198.51.100.7')).toBe('198.51.100.7');
  });

  it('keys the addresses of one IPv6 /64 together', () => {
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('::2')).toBe(rateLimitKey('::3'));
    expect(rateLimitKey('2001:db8:aa:bb:1::1')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitKey('2001:0DB8:00aa:00bb:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:bb::/64');
  });

  it('keeps different /64 networks apart', () => {
    expect(rateLimitKey('2001:db8:aa:bb::1')).not.toBe(rateLimitKey('2001:db8:aa:bc::1'));
  });

  it('reads an IPv4 address written as IPv6 as the IPv4 address', () => {
    expect(rateLimitKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    expect(await addressSeenBy(TrustedProxies.none, '198.51.100.7')).toBe('unknown');
    expect(await addressSeenBy(TrustedProxies.none, '198.51.100.7', '203.0.113.5')).toBe(
      '203.0.113.5',
    );
  });

  it('ignores X-Forwarded-For from a caller that is not a trusted proxy', async () => {
    expect(await addressSeenBy(loadBalancers, '198.51.100.7', '203.0.113.5')).toBe('203.0.113.5');
  });

  it('reads X-Forwarded-For from a trusted proxy, keyed for rate limits', async () => {
    expect(await addressSeenBy(loadBalancers, '198.51.100.7', '10.0.0.2')).toBe('198.51.100.7');
    expect(await addressSeenBy(loadBalancers, '2001:db8::1', '10.0.0.2')).toBe('2001:db8:0:0::/64');
    expect(await addressSeenBy(TrustedProxies.thisProcess, '198.51.100.7')).toBe('198.51.100.7');
  });

  it('takes the entry the trusted proxy added, not the ones the client wrote', async () => {
    expect(
      await addressSeenBy(loadBalancers, '10.0.0.1, 192.0.2.55 , 198.51.100.7', '10.0.0.2'),
    ).toBe('198.51.100.7');
  });

  it('knows no address when there is neither a socket nor a forwarded one', async () => {
    expect(await addressSeenBy(TrustedProxies.thisProcess, 'evil, not-an-ip')).toBe('unknown');
    expect(await addressSeenBy(TrustedProxies.thisProcess)).toBe('unknown');
  });
});

describe('networkOf', () => {
  it('keeps an IPv4 address to its /24', () => {
    expect(networkOf('198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
  });

  it('keeps an IPv6 address to its /48', () => {
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1::/48');
    expect(networkOf('2001:DB8::1')).toBe('2001:db8:0::/48');
  });

  it('knows no network for what is not an address', () => {
    expect(networkOf('unknown')).toBeNull();
  });
});

describe('requestOrigin', () => {
  const originSeenBy = async (headers: Record<string, string>) => {
    const app = new Hono().get('/', (c) => c.json(requestOrigin(c, TrustedProxies.thisProcess)));
    return (await app.request('/', { headers })).json() as Promise<unknown>;
  };

  it('is the network and the browser the web server passed on', async () => {
    expect(
      await originSeenBy({ 'X-Forwarded-For': '198.51.100.7', 'User-Agent': 'Firefox/140.0' }),
    ).toEqual({ network: '198.51.100.0/24', userAgent: 'Firefox/140.0' });
  });

  it('cuts a long User-Agent to 512 characters and knows none when it is blank', async () => {
    const long = (await originSeenBy({ 'User-Agent': 'x'.repeat(600) })) as { userAgent: string };
    expect(long.userAgent).toHaveLength(512);
    expect(await originSeenBy({ 'User-Agent': '   ' })).toEqual({ network: null, userAgent: null });
  });
});

describe('isFromTrustedProxy', () => {
  const askedBy = async (trustedProxies: TrustedProxies, socketAddress?: string) => {
    const app = new Hono().get('/', (c) => c.json(isFromTrustedProxy(c, trustedProxies)));
    const env = socketAddress ? { incoming: { socket: { remoteAddress: socketAddress } } } : {};
    const trusted: unknown = await (await app.request('/', {}, env)).json();
    return trusted;
  };

  it('asks the socket, never a header', async () => {
    expect(await askedBy(loadBalancers, '10.0.0.2')).toBe(true);
    expect(await askedBy(loadBalancers, '203.0.113.5')).toBe(false);
    expect(await askedBy(loadBalancers)).toBe(false);
    expect(await askedBy(TrustedProxies.thisProcess)).toBe(true);
  });
});
