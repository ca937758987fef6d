import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import {
  lastCodeTo,
  memberWithPhone,
  otherCode,
  sendOtp,
  TOO_MANY_ATTEMPTS,
  verifyOtp,
} from './attacks-support.ts';
import {
  randomClientAddress,
  reloadUser,
  startTestApi,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApi,
} from './support.ts';

/**
 * Guessing is bounded (docs/PRODUCT.md §11.2, §11.3): 10 wrong passwords lock an account, and
 * every rate limit of §11.3 answers 429 with a clear message and a `Retry-After` in whole
 * seconds that lies within the limit's window, at the first call past the limit and not before.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const HOUR_SECONDS = 3600;

/** Sends `count` calls at once and answers their statuses in the order they were made. */
async function statuses(count: number, call: (index: number) => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: count }, (_, index) => call(index)));
  return responses.map((response) => response.status);
}

/** The refusal past a limit: 429, the clear message, and a wait within the window. */
async function expectRefusedFor(response: Response, windowSeconds: number, body: unknown) {
  expect(response.status).toBe(429);
  expect(await response.json()).toEqual(body);
  const retryAfter = response.headers.get('Retry-After') ?? '';
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

describe('account lockout', () => {
  it('locks after 10 wrong passwords from 10 different addresses, refusing the right one after', async () => {
    const account = await api.createUser();
    const wrong = { email: account.email, password: 'a wrong password' };

    for (let attempt = 1; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      expect((await api.signIn(wrong)).status).toBe(401);
    }
    expect((await reloadUser(api.db, account.user.id)).lockedAt).toBeNull();
    expect((await api.signIn(wrong)).status).toBe(401);

    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
    expect((await api.signIn({ email: account.email, password: TEST_PASSWORD })).status).toBe(401);
  });
});

describe('every rate limit of docs/PRODUCT.md §11.3 answers 429 with Retry-After', () => {
  it('sign-in: 60 per 10 minutes per address, whatever the email', async () => {
    const clientAddress = randomClientAddress();
    const attempt = () =>
      api.signIn({ email: uniqueEmail(), password: 'a wrong password' }, { clientAddress });

    expect(await statuses(60, attempt)).toEqual(Array(60).fill(401));

    await expectRefusedFor(await attempt(), 10 * 60, TOO_MANY_ATTEMPTS);
  });

  it('sign-up: 20 per hour per address', async () => {
    const clientAddress = randomClientAddress();
    // Refused sign-ups count too; these stop before any password is hashed.
    const attempt = () =>
      api.signUp(
        {
          email: uniqueEmail(),
          password: TEST_PASSWORD,
          name: 'Avery',
          last_name: 'Jordan',
          terms_of_service: 0,
        },
        { clientAddress },
      );

    expect(await statuses(20, attempt)).toEqual(Array(20).fill(422));

    await expectRefusedFor(await attempt(), HOUR_SECONDS, TOO_MANY_ATTEMPTS);
  });

  it('reset requests: 5 per hour per account, from any addresses', async () => {
    const account = await api.createUser();
    const attempt = () => api.requestPasswordReset(account.email);

    expect(await statuses(5, attempt)).toEqual(Array(5).fill(200));

    await expectRefusedFor(await attempt(), HOUR_SECONDS, TOO_MANY_ATTEMPTS);
  });

  it('reset requests: 30 per hour per address, whatever the emails', async () => {
    const clientAddress = randomClientAddress();
    const attempt = () => api.requestPasswordReset(uniqueEmail(), { clientAddress });

    expect(await statuses(30, attempt)).toEqual(Array(30).fill(200));

    await expectRefusedFor(await attempt(), HOUR_SECONDS, TOO_MANY_ATTEMPTS);
  });

  it('unlock requests: 5 per hour per account, from any addresses', async () => {
    const account = await api.createUser();
    const attempt = () => api.requestUnlock(account.email);

    expect(await statuses(5, attempt)).toEqual(Array(5).fill(200));

    await expectRefusedFor(await attempt(), HOUR_SECONDS, TOO_MANY_ATTEMPTS);
  });

  it('unlock requests: 30 per hour per address, whatever the emails', async () => {
    const clientAddress = randomClientAddress();
    const attempt = () => api.requestUnlock(uniqueEmail(), { clientAddress });

    expect(await statuses(30, attempt)).toEqual(Array(30).fill(200));

    await expectRefusedFor(await attempt(), HOUR_SECONDS, TOO_MANY_ATTEMPTS);
  });

  it('send-otp: a resend at most once a minute', async () => {
    const { token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    api.clock.advanceBy(MINUTE / 2);

    const refused = await sendOtp(api, token);

    await expectRefusedFor(refused, 60, {
      error: 'We have just sent you a code. Please wait a minute before asking for another.',
    });
    expect(refused.headers.get('Retry-After')).toBe('30');
  });

  it('send-otp: at most 5 codes an hour', async () => {
    const { token } = await memberWithPhone(api);
    for (let sent = 0; sent < 5; sent += 1) {
      expect((await sendOtp(api, token)).status).toBe(200);
      api.clock.advanceBy(MINUTE);
    }

    await expectRefusedFor(await sendOtp(api, token), HOUR_SECONDS, {
      error: 'You have asked for too many codes. Please wait a while and try again.',
    });
  });

  it('MFA verify: 10 checks per 10 minutes per member, even with the right code', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const code = await lastCodeTo(api, phone);

    for (let check = 0; check < 10; check += 1) {
      // Replies that are no code at all spend no try of the code, only checks of the limit.
      expect((await verifyOtp(api, token, check < 4 ? otherCode(code) : 'abc')).status).toBe(422);
    }

    await expectRefusedFor(await verifyOtp(api, token, code), 10 * 60, TOO_MANY_ATTEMPTS);
  });
});
