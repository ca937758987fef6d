import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_MINIMUM_DURATION_MS } from '../../api/services/sign-in/timing.ts';
import { HOUR } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { jsonRequest, startTestApi, TEST_PASSWORD, uniqueEmail, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

describe('POST /api/v1/users/sign_in', () => {
  it('answers 200 with a bearer token in the Authorization header', async () => {
    const { email, password } = await api.createUser();

    const response = await api.signIn({ email, password });

    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('Authorization')).toMatch(/^Bearer [A-Za-z0-9_-]{43}$/);
  });

  it('gives a new token on every sign-in', async () => {
    const account = await api.createUser();

    const first = await api.signIn(account);
    const second = await api.signIn(account);

    expect(first.headers.get('Authorization')).not.toBe(second.headers.get('Authorization'));
  });

  it('reports the absolute expiry, 24 hours after sign-in, as ISO 8601', async () => {
    const account = await api.createUser();
    const signedInAt = api.clock.now();

    const response = await api.signIn(account);
    const body = (await response.json()) as { expires_at: string };

    expect(body.expires_at).toBe(new Date(signedInAt.getTime() + 24 * HOUR).toISOString());
  });

  it('offers MFA enrollment to a user without an enrolled phone', async () => {
    const account = await api.createUser();

    const response = await api.signIn(account);

    expect(await response.json()).toEqual({
      expires_at: expect.any(String) as unknown,
      mfa_requires_verification: true,
      mfa_required: false,
    });
  });

  it('requires MFA verification from a user with an enrolled phone', async () => {
    const account = await api.createUser({ mfaPhone: '+15555550123' });

    const response = await api.signIn(account);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      expires_at: expect.any(String) as unknown,
      mfa_requires_verification: false,
      mfa_required: true,
    });
  });

  it('accepts the email in any letter case and with surrounding spaces', async () => {
    const account = await api.createUser();

    const response = await api.signIn({
      email: `  ${account.email.toUpperCase()} `,
      password: account.password,
    });

    expect(response.status).toBe(200);
  });

  it('answers a wrong password, an unknown email and a locked account identically', async () => {
    const account = await api.createUser();
    const locked = await api.createUser();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: locked.email, password: 'not the password' });
    }

    const answers = await Promise.all(
      [
        api.signIn({ email: account.email, password: 'not the password' }),
        api.signIn({ email: uniqueEmail(), password: TEST_PASSWORD }),
        api.signIn(locked),
      ].map(async (pending) => {
        const response = await pending;
        return {
          status: response.status,
          authorization: response.headers.get('Authorization'),
          body: await response.text(),
        };
      }),
    );

    for (const answer of answers) {
      expect(answer).toEqual({
        status: 401,
        authorization: null,
        body: JSON.stringify({ error: 'Invalid email or password.' }),
      });
    }
  });

  it('takes at least the same minimum time for a wrong password, an unknown email, a locked account and a success', async () => {
    const account = await api.createUser();
    const locked = await api.createUser();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: locked.email, password: 'not the password' });
    }
    const timed = async (credentials: { email: string; password: string }) => {
      const started = performance.now();
      await api.signIn(credentials);
      return performance.now() - started;
    };

    // One at a time, so that each is timed alone.
    const durations = [
      await timed({ email: uniqueEmail(), password: TEST_PASSWORD }),
      await timed({ email: account.email, password: 'not the password' }),
      await timed(locked),
      await timed(account),
    ];

    for (const duration of durations) {
      // Timers may fire up to a millisecond early.
      expect(duration).toBeGreaterThanOrEqual(SIGN_IN_MINIMUM_DURATION_MS - 1);
    }
  });

  it('does not sign in with the password of another account', async () => {
    const first = await api.createUser({ password: 'first member password' });
    const second = await api.createUser({ password: 'second member password' });

    const response = await api.signIn({ email: first.email, password: second.password });

    expect(response.status).toBe(401);
  });

  it('refuses a body without the user object, naming it', async () => {
    const response = await api.app.request(
      '/api/v1/users/sign_in',
      jsonRequest({ email: 'member@example.com', password: TEST_PASSWORD }),
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'user is required.', field: 'user' });
  });
});
