import { describe, expect, it } from 'vitest';
import { TrustedProxies } from './trusted-proxies.ts';

function trusting(list: string): TrustedProxies {
  const parsed = TrustedProxies.parse(list);
  if (!(parsed instanceof TrustedProxies)) throw new Error(parsed.problem);
  return parsed;
}

describe('TrustedProxies.parse', () => {
  it('trusts nobody when the list is empty', () => {
    for (const list of ['', ' ', ',']) {
      const proxies = trusting(list);
      expect(proxies.trusts('127.0.0.1')).toBe(false);
      expect(proxies.trusts('::1')).toBe(false);
      expect(proxies.trusts(undefined)).toBe(false);
    }
  });

  it('reads IPv4 and IPv6 addresses and networks, comma-separated', () => {
    const proxies = trusting('127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8');

    expect(proxies.entries).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    for (const address of ['127.0.0.1', '10.255.0.9', '::1', 'fd12:3456::1']) {
      expect(proxies.trusts(address), address).toBe(true);
    }
    for (const address of ['127.0.0.2', '11.0.0.1', '::2', 'fe80::1', '2001:db8::1']) {
      expect(proxies.trusts(address), address).toBe(false);
    }
  });

  it('reads loopback as 127.0.0.0/8 and ::1', () => {
    const proxies = trusting('LOOPBACK');

    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(proxies.trusts(address), address).toBe(true);
    }
    expect(proxies.trusts('128.0.0.1')).toBe(false);
    expect(proxies.trusts('::2')).toBe(false);
  });

  it('matches an IPv4 address written as IPv6 against IPv4 entries', () => {
    const proxies = trusting('192.0.2.0/24');

    expect(proxies.trusts('::ffff:192.0.2.7')).toBe(true);
    expect(proxies.trusts('::ffff:c000:207')).toBe(true);
    expect(proxies.trusts('::ffff:198.51.100.7')).toBe(false);
  });

  it('trusts what is not an address never, and an in-process caller only when told to', () => {
    expect(trusting('0.0.0.0/0').trusts('not-an-address')).toBe(false);
    expect(trusting('0.0.0.0/0').trusts(undefined)).toBe(false);
    expect(TrustedProxies.none.trusts(undefined)).toBe(false);
    expect(TrustedProxies.thisProcess.trusts(undefined)).toBe(true);
    expect(TrustedProxies.thisProcess.trusts('127.0.0.1')).toBe(false);
  });

  it('refuses a number of proxies, the form this setting once had, saying what it must be now', () => {
    for (const list of ['0', '1', '2', '10.0.0.1,1']) {
      expect(TrustedProxies.parse(list)).toEqual({
        problem: expect.stringMatching(
          /^must list the proxies' addresses or networks, .*e\.g\. 10\.0\.0\.0\/8,::1 or loopback.*, not a number of proxies \("\d"\)$/,
        ) as unknown,
      });
    }
  });

  it.each([
    'all of them',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0',
    'fe80::1%eth0',
    'proxy.internal',
    '10.0.0.1:8080',
  ])('refuses %j, naming it', (entry) => {
    expect(TrustedProxies.parse(`127.0.0.1,${entry}`)).toEqual({
      problem: expect.stringContaining(`not "${entry}"`) as unknown,
    });
  });
});
