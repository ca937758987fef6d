import type { APIContext } from 'astro';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../platform/logger.ts';
import { MINUTE } from '../../../platform/clock.ts';
import { clientAddressHeader } from '../../lib/internal-headers';
import { POST } from '../../pages/csp-reports';
import {
  ClientWindowLimit,
  CSP_REPORTS_PER_CLIENT,
  refuseCspReportsOverLimit,
} from './csp-report-limit';

/** A limit on a clock the test moves. */
function limitFor(options: { limit?: number; windowMs?: number; maxClients?: number } = {}) {
  const clock = { now: 1_000_000 };
  const limit = new ClientWindowLimit({
    limit: options.limit ?? 3,
    windowMs: options.windowMs ?? 10 * MINUTE,
    maxClients: options.maxClients ?? 100,
    now: () => clock.now,
  });
  return { limit, clock };
}

const takeTimes = (limit: ClientWindowLimit, address: string, times: number) =>
  Array.from({ length: times }, () => limit.take(address).allowed);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ClientWindowLimit', () => {
  it('lets a client post up to the limit in its window, then refuses it until the window ends', () => {
    const { limit, clock } = limitFor({ limit: 3, windowMs: 10 * MINUTE });

    expect(takeTimes(limit, '198.51.100.7', 3)).toEqual([true, true, true]);
    clock.now += 4 * MINUTE;

    expect(limit.take('198.51.100.7')).toEqual({
      allowed: false,
      retryAfterSeconds: 6 * 60,
      reason: 'over its limit',
      firstRefusal: true,
    });
    expect(limit.take('198.51.100.7')).toMatchObject({ allowed: false, firstRefusal: false });
  });

  it('counts each client apart, an IPv6 /64 as one client', () => {
    const { limit } = limitFor({ limit: 2 });
    takeTimes(limit, '198.51.100.7', 2);
    takeTimes(limit, '2001:db8:aa:bb::1', 2);

    expect(limit.take('198.51.100.7').allowed).toBe(false);
    expect(limit.take('198.51.100.8').allowed).toBe(true);
    expect(limit.take('2001:db8:aa:bb::ffff').allowed).toBe(false);
    expect(limit.take('2001:db8:aa:bc::1').allowed).toBe(true);
    expect(limit.take('::ffff:198.51.100.7').allowed).toBe(false);
  });

  it('counts the posts of unknown address together', () => {
    const { limit } = limitFor({ limit: 1 });

    expect(limit.take(undefined).allowed).toBe(true);
    expect(limit.take('').allowed).toBe(false);
  });

  it('starts a new window once the old one has ended', () => {
    const { limit, clock } = limitFor({ limit: 2, windowMs: 10 * MINUTE });
    takeTimes(limit, '198.51.100.7', 3);

    clock.now += 10 * MINUTE - 1;
    expect(limit.take('198.51.100.7').allowed).toBe(false);
    clock.now += 1;
    expect(takeTimes(limit, '198.51.100.7', 2)).toEqual([true, true]);
    expect(limit.take('198.51.100.7')).toMatchObject({ allowed: false, firstRefusal: true });
  });

  it('never tracks more clients than it may, and forgets those whose window has ended', () => {
    const { limit, clock } = limitFor({ limit: 5, windowMs: 10 * MINUTE, maxClients: 50 });
    for (let index = 0; index < 50; index += 1) {
      limit.take(`192.0.2.${index}`);
      clock.now += 1000;
    }

    for (let index = 0; index < 1000; index += 1) limit.take(`198.18.${index >> 8}.${index & 255}`);

    expect(limit.trackedClients).toBe(50);
    clock.now = 1_000_000 + 10 * MINUTE + 2000;
    limit.take('198.51.100.7');
    expect(limit.trackedClients).toBe(48);
    clock.now += 10 * MINUTE;
    limit.take('198.51.100.8');
    expect(limit.trackedClients).toBe(1);
  });

  it('refuses a new client while every place holds a live window, rather than forget a count', () => {
    const { limit, clock } = limitFor({ limit: 1, windowMs: 10 * MINUTE, maxClients: 2 });
    limit.take('192.0.2.1');
    clock.now += MINUTE;
    limit.take('192.0.2.2');

    expect(limit.take('192.0.2.3')).toEqual({
      allowed: false,
      retryAfterSeconds: 9 * 60,
      reason: 'no room',
      firstRefusal: true,
    });
    expect(limit.take('192.0.2.4')).toMatchObject({ allowed: false, firstRefusal: false });
    expect(limit.take('192.0.2.1').allowed).toBe(false);

    clock.now += 9 * MINUTE;
    expect(limit.take('192.0.2.3').allowed).toBe(true);
    expect(limit.take('192.0.2.1').allowed).toBe(false);
  });
});

describe('refuseCspReportsOverLimit', () => {
  it('answers 429 with Retry-After past the limit, and logs one line, not one per post', () => {
    const warned = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const { limit } = limitFor({ limit: 2 });

    expect(refuseCspReportsOverLimit('198.51.100.7', limit)).toBeUndefined();
    expect(refuseCspReportsOverLimit('198.51.100.7', limit)).toBeUndefined();
    const refusals = Array.from({ length: 5 }, () =>
      refuseCspReportsOverLimit('198.51.100.7', limit),
    );

    expect(refusals.map((answer) => answer?.status)).toEqual([429, 429, 429, 429, 429]);
    expect(refusals[0]?.headers.get('retry-after')).toBe('600');
    expect(warned).toHaveBeenCalledTimes(1);
    expect(warned).toHaveBeenCalledWith(
      { retryAfterSeconds: 600 },
      expect.stringMatching(/too many from one client; its reports are dropped/) as unknown,
    );
  });
});

describe('POST /csp-reports', () => {
  /** A post from `address` as scripts/start.mjs hands it to the page. */
  const postFrom = (address: string) =>
    POST({
      request: new Request('http://portal.test/csp-reports', {
        method: 'POST',
        headers: { [clientAddressHeader]: address, 'content-type': 'text/plain' },
        body: 'not a report',
      }),
      locals: {},
      clientAddress: '127.0.0.1',
    } as unknown as APIContext);

  it(`answers 429 with Retry-After after ${CSP_REPORTS_PER_CLIENT.limit} posts from one client in 10 minutes, and still hears another`, async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const statuses: number[] = [];
    for (let post = 0; post < CSP_REPORTS_PER_CLIENT.limit; post += 1) {
      statuses.push((await postFrom('198.51.100.201')).status);
    }

    const refused = await postFrom('198.51.100.201');

    expect(new Set(statuses)).toEqual(new Set([415]));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590);
    expect((await postFrom('198.51.100.202')).status).toBe(415);
  });
});
