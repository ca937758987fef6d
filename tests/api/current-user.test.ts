import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../api/db/schema/index.ts';
import { HOUR, MINUTE } from '../../platform/clock.ts';
import { generateToken, hashToken } from '../../api/services/tokens.ts';
import { startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const SESSION_EXPIRED = { error: 'Your session has expired. Please sign in again.' };

async function expectSessionExpired(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(SESSION_EXPIRED);
}

describe('GET /api/v1/users/current', () => {
  it('answers the signed-in user with their company', async () => {
    const account = await api.createUser({
      name: 'Avery',
      lastName: 'Jordan',
      companyName: 'Acme Health',
    });
    const token = await api.signInToken(account);

    const response = await api.getCurrentUser(token);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      external_id: account.user.externalId,
      full_name: 'Avery Jordan',
      name: 'Avery',
      last_name: 'Jordan',
      email: account.email,
      company: { name: 'Acme Health' },
      request_count: 0,
      help_topics: [],
      phone_number: null,
      preferred_contact_method: null,
      mfa_enrolled: false,
      phone_last_digits: null,
      email_verified: true,
      pending_email: null,
      company_sign_in: false,
    });
  });

  it('answers company null for a user without a company', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    const body = (await (await api.getCurrentUser(token)).json()) as { company: unknown };

    expect(body.company).toBeNull();
  });

  it('never exposes internal ids or the password hash', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    const text = await (await api.getCurrentUser(token)).text();

    expect(text).not.toContain('argon2');
    expect(Object.keys(JSON.parse(text) as object)).not.toContain('id');
  });

  it('answers 401 without a token', async () => {
    await expectSessionExpired(await api.getCurrentUser());
  });

  it('answers 401 with a token it never issued', async () => {
    await expectSessionExpired(await api.getCurrentUser('A'.repeat(43)));
  });

  it('answers 401 to an Authorization header that is not a bearer token', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    const response = await api.app.request('/api/v1/users/current', {
      headers: { Authorization: `Basic ${token}` },
    });

    await expectSessionExpired(response);
  });

  it('stores only the hash of the token', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    const [stored] = await api.db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));

    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.tokenHash).not.toBe(token);
  });

  it('answers 401 once the session has been idle for 30 minutes', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    api.clock.advanceBy(30 * MINUTE);

    await expectSessionExpired(await api.getCurrentUser(token));
  });

  it('keeps the session alive while it is used at least every 30 minutes', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    for (let call = 0; call < 4; call += 1) {
      api.clock.advanceBy(29 * MINUTE);
      expect((await api.getCurrentUser(token)).status).toBe(200);
    }
  });

  it('answers 401 after 24 hours even when the session was used all along', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    for (let elapsed = 20 * MINUTE; elapsed < 24 * HOUR; elapsed += 20 * MINUTE) {
      api.clock.advanceBy(20 * MINUTE);
      expect((await api.getCurrentUser(token)).status).toBe(200);
    }
    api.clock.advanceBy(20 * MINUTE);

    await expectSessionExpired(await api.getCurrentUser(token));
  });

  it('answers 401 after sign-out', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    expect((await api.signOut(token)).status).toBe(204);

    await expectSessionExpired(await api.getCurrentUser(token));
  });

  it('answers "MFA authentication required" to an enrolled user whose session is not verified', async () => {
    const account = await api.createUser({ mfaPhone: '+15555550123' });
    const token = await api.signInToken(account);

    const response = await api.getCurrentUser(token);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'MFA authentication required' });
  });

  it('answers an enrolled user whose session has been verified, given its mfa token', async () => {
    const account = await api.createUser({ mfaPhone: '+15555550123' });
    const token = await api.signInToken(account);
    const mfaToken = generateToken();
    await api.db
      .update(sessions)
      .set({ mfaVerifiedAt: api.clock.now(), mfaTokenHash: hashToken(mfaToken) })
      .where(eq(sessions.tokenHash, hashToken(token)));

    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    const withoutToken = await api.getCurrentUser(token);
    expect(withoutToken.status).toBe(401);
    expect(await withoutToken.json()).toEqual({ error: 'MFA authentication required' });
  });

  it('answers "session expired", not "MFA required", to an enrolled user whose session ended', async () => {
    const account = await api.createUser({ mfaPhone: '+15555550123' });
    const token = await api.signInToken(account);
    api.clock.advanceBy(30 * MINUTE);

    await expectSessionExpired(await api.getCurrentUser(token));
  });
});
