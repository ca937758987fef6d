import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

function appTrusting(trustProxy: boolean) {
  return new Hono().get('/', (c) => c.text(clientAddress(c, trustProxy)));
}

async function addressSeenBy(trustProxy: boolean, forwardedFor?: string): Promise<string> {
  const headers: Record<string, string> = forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {};
  return (await appTrusting(trustProxy).request('/', { headers })).text();
}

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    expect(await addressSeenBy(false, '198.51.100.7')).toBe('unknown');
  });

  it('reads X-Forwarded-For behind a trusted proxy', async () => {
    expect(await addressSeenBy(true, '198.51.100.7')).toBe('198.51.100.7');
    expect(await addressSeenBy(true, '2001:db8::1')).toBe('2001:db8::1');
  });

  it('takes the entry the trusted proxy added, not the ones the client wrote', async () => {
    expect(await addressSeenBy(true, '10.0.0.1, 192.0.2.55 , 198.51.100.7')).toBe('198.51.100.7');
  });

  it('falls back when the forwarded entry is not an address', async () => {
    expect(await addressSeenBy(true, 'evil, not-an-ip')).toBe('unknown');
    expect(await addressSeenBy(true)).toBe('unknown');
  });
});
