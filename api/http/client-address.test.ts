import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientAddressFrom, rateLimitKey } from './client-address.ts';

async function addressSeenBy(trustedProxies: number, forwardedFor?: string): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustedProxies)));
  const headers: Record<string, string> = forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {};
  return (await app.request('/', { headers })).text();
}

describe('clientAddressFrom', () => {
  it('is the socket address when no proxy is trusted, whatever the client writes', () => {
    expect(clientAddressFrom('192.0.2.10', '198.51.100.77', 0)).toBe('192.0.2.10');
    expect(clientAddressFrom('192.0.2.10', '203.0.113.5, 127.0.0.1', 0)).toBe('192.0.2.10');
  });

  it('takes the entry the one trusted proxy added, never the ones the client wrote', () => {
    expect(clientAddressFrom('10.0.0.2', '203.0.113.5, 198.51.100.7', 1)).toBe('198.51.100.7');
    expect(clientAddressFrom('10.0.0.2', '198.51.100.7', 1)).toBe('198.51.100.7');
  });

  it('counts back as many hops as there are trusted proxies', () => {
    expect(clientAddressFrom('10.0.0.3', '203.0.113.5, 198.51.100.7, 10.0.0.2', 2)).toBe(
      '198.51.100.7',
    );
  });

  it('takes the furthest hop when there are fewer hops than trusted proxies', () => {
    expect(clientAddressFrom('10.0.0.3', '198.51.100.7', 3)).toBe('198.51.100.7');
  });

  it('treats an in-process caller as the trusted proxy in front of the API', () => {
    expect(clientAddressFrom(undefined, '198.51.100.7', 1)).toBe('198.51.100.7');
  });

  it('falls back to the socket when the hop is not an address', () => {
    expect(clientAddressFrom('10.0.0.2', 'evil, not-an-ip', 1)).toBe('10.0.0.2');
    expect(clientAddressFrom('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
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
    expect(await addressSeenBy(0, '198.51.100.7')).toBe('unknown');
  });

  it('reads X-Forwarded-For behind a trusted proxy, keyed for rate limits', async () => {
    expect(await addressSeenBy(1, '198.51.100.7')).toBe('198.51.100.7');
    expect(await addressSeenBy(1, '2001:db8::1')).toBe('2001:db8:0:0::/64');
  });

  it('takes the entry the trusted proxy added, not the ones the client wrote', async () => {
    expect(await addressSeenBy(1, '10.0.0.1, 192.0.2.55 , 198.51.100.7')).toBe('198.51.100.7');
  });

  it('knows no address when there is neither a socket nor a forwarded one', async () => {
    expect(await addressSeenBy(1, 'evil, not-an-ip')).toBe('unknown');
    expect(await addressSeenBy(1)).toBe('unknown');
  });
});
