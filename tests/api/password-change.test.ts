import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_MINIMUM_DURATION_MS } from '../../api/services/sign-in/timing.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { verifyPassword } from '../../api/services/sign-in/passwords.ts';
import {
  randomClientAddress,
  reloadUser,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  type TestApi,
  type TestUser,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NEW_PASSWORD = 'a brand new passphrase';
const WRONG_CURRENT = {
  error: 'Your current password is not right.',
  field: 'user.current_password',
};

function changePassword(
  token: string,
  user: Record<string, unknown>,
  options: { clientAddress?: string } = {},
) {
  return api.call('PATCH', '/api/v1/users', {
    token,
    body: { user },
    clientAddress: options.clientAddress,
  });
}

async function signedIn(account?: TestUser) {
  const member = account ?? (await api.createUser());
  return { member, token: await api.signInToken(member) };
}

describe('PATCH /api/v1/users (changing the password while signed in)', () => {
  it('changes the password and answers the current user, as GET /users/current does', async () => {
    const { member, token } = await signedIn();

    const response = await changePassword(token, {
      current_password: member.password,
      password: NEW_PASSWORD,
    });

    expect(response.status).toBe(200);
    const current = await api.getCurrentUser(token);
    expect(await response.json()).toEqual(await current.json());
    const reloaded = await reloadUser(api.db, member.user.id);
    expect(await verifyPassword(NEW_PASSWORD, reloaded.passwordHash)).toBe(true);
    expect((await api.signIn({ email: member.email, password: member.password })).status).toBe(401);
    expect((await api.signIn({ email: member.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("ends every other session of the member and keeps the caller's, and no one else's", async () => {
    const member = await api.createUser();
    const caller = await api.signInToken(member);
    const otherDevice = await api.signInToken(member);
    const { token: stranger } = await signedIn();

    const response = await changePassword(caller, {
      current_password: member.password,
      password: NEW_PASSWORD,
    });

    expect(response.status).toBe(200);
    expect((await api.getCurrentUser(caller)).status).toBe(200);
    expect((await api.getCurrentUser(otherDevice)).status).toBe(401);
    expect((await api.getCurrentUser(stranger)).status).toBe(200);
  });

  it('emails the member that the password was changed, with what to do if it was not them', async () => {
    const { member, token } = await signedIn();

    await changePassword(token, { current_password: member.password, password: NEW_PASSWORD });

    const mail = await api.mailTo(member.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Your Member Concierge password was changed');
    expect(mail[0]?.textBody).toContain(
      'Every other device that was signed in has been signed out',
    );
    expect(mail[0]?.textBody).toContain('reset your password at once');
    expect(mail[0]?.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/forgot-password`);
    expect(mail[0]?.textBody).not.toContain(NEW_PASSWORD);
  });

  it('refuses a wrong current password under user.current_password, changing nothing', async () => {
    const { member, token } = await signedIn();
    const otherDevice = await api.signInToken(member);

    const response = await changePassword(token, {
      current_password: 'not the password at all',
      password: NEW_PASSWORD,
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG_CURRENT);
    const reloaded = await reloadUser(api.db, member.user.id);
    expect(await verifyPassword(member.password, reloaded.passwordHash)).toBe(true);
    expect(reloaded.failedAttempts).toBe(1);
    expect((await api.getCurrentUser(otherDevice)).status).toBe(200);
    expect(await api.mailTo(member.email)).toHaveLength(0);
  });

  it('takes at least as long as a sign-in, right or wrong', async () => {
    const { member, token } = await signedIn();
    for (const current of ['not the password at all', member.password]) {
      const started = performance.now();
      await changePassword(token, { current_password: current, password: 'short' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(SIGN_IN_MINIMUM_DURATION_MS - 1);
    }
  });

  it.each([
    ['too short', 'short', 'Password must be at least 8 characters.'],
    ['too long', 'x'.repeat(129), 'Password must be at most 128 characters.'],
    ['common', 'password123', 'This password is too common. Please choose a less predictable one.'],
  ])(
    'refuses a %s new password with the policy sentence under user.password',
    async (_, password, error) => {
      const { member, token } = await signedIn();

      const response = await changePassword(token, { current_password: member.password, password });

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ error, field: 'user.password' });
      const reloaded = await reloadUser(api.db, member.user.id);
      expect(await verifyPassword(member.password, reloaded.passwordHash)).toBe(true);
    },
  );

  it("refuses the member's own email or name, as sign-up and reset do", async () => {
    const member = await api.createUser({ name: 'Quinton', lastName: 'Marchetti-Delaware' });
    const token = await api.signInToken(member);

    for (const password of [member.email, 'Quinton Marchetti-Delaware']) {
      const response = await changePassword(token, { current_password: member.password, password });
      expect(await response.json()).toEqual({
        error: 'Password must not be your email address or your name.',
        field: 'user.password',
      });
    }
  });

  it('refuses a new password equal to the current one', async () => {
    const { member, token } = await signedIn();
    const otherDevice = await api.signInToken(member);

    const response = await changePassword(token, {
      current_password: member.password,
      password: member.password,
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Choose a password different from your current one.',
      field: 'user.password',
    });
    expect((await api.getCurrentUser(otherDevice)).status).toBe(200);
    expect(await api.mailTo(member.email)).toHaveLength(0);
  });

  it('answers 401 without a session, and with an ended one', async () => {
    const { member, token } = await signedIn();
    const body = { current_password: member.password, password: NEW_PASSWORD };

    const anonymous = await api.app.request('/api/v1/users', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: body }),
    });
    await api.signOut(token);
    const ended = await changePassword(token, body);

    expect(anonymous.status).toBe(401);
    expect(ended.status).toBe(401);
  });

  it.each([
    ['no current password', {}, 'user.current_password is required.', 'user.current_password'],
    ['no new password', { current_password: 'x' }, 'user.password is required.', 'user.password'],
    [
      'a current password over 1024 characters',
      { current_password: 'x'.repeat(1025), password: NEW_PASSWORD },
      'user.current_password must be at most 1024 characters.',
      'user.current_password',
    ],
    [
      'a new password over 1024 characters',
      { current_password: 'x', password: 'x'.repeat(1025) },
      'user.password must be at most 1024 characters.',
      'user.password',
    ],
  ])('refuses a body with %s with 400 and the field', async (_, user, error, field) => {
    const { member, token } = await signedIn();

    const response = await changePassword(token, user);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field });
    expect((await reloadUser(api.db, member.user.id)).failedAttempts).toBe(0);
  });
});

describe('the lockout through the change form', () => {
  it('counts wrong current passwords with failed sign-ins, and a right one clears the count', async () => {
    const { member, token } = await signedIn();
    await api.signIn({ email: member.email, password: 'wrong at sign-in' });
    await changePassword(token, { current_password: 'wrong here', password: NEW_PASSWORD });
    expect((await reloadUser(api.db, member.user.id)).failedAttempts).toBe(2);

    const response = await changePassword(token, {
      current_password: member.password,
      password: 'short',
    });

    expect(response.status).toBe(422);
    expect((await reloadUser(api.db, member.user.id)).failedAttempts).toBe(0);
  });

  it('locks the account at the 10th wrong current password, emails the unlock link and ends every session', async () => {
    const { member, token } = await signedIn();
    const otherDevice = await api.signInToken(member);
    const wrong = { current_password: 'not the password at all', password: NEW_PASSWORD };

    for (let attempt = 1; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      expect((await changePassword(token, wrong)).status).toBe(422);
    }
    expect((await api.getCurrentUser(token)).status).toBe(200);
    const locking = await changePassword(token, wrong);

    expect(locking.status).toBe(422);
    expect(await locking.json()).toEqual(WRONG_CURRENT);
    const reloaded = await reloadUser(api.db, member.user.id);
    expect(reloaded.lockedAt).not.toBeNull();
    expect((await api.getCurrentUser(token)).status).toBe(401);
    expect((await api.getCurrentUser(otherDevice)).status).toBe(401);
    const mail = await api.mailTo(member.email);
    expect(mail.map((email) => email.subject)).toEqual([
      'Your Member Concierge account was locked',
    ]);
    expect(mail[0]?.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/unlock/`);
    // Locked: even the right password does not sign in.
    expect((await api.signIn({ email: member.email, password: member.password })).status).toBe(401);
  });

  it('refuses the right current password while the account is locked, the same way as a wrong one', async () => {
    const member = await api.createUser();
    const token = await api.signInToken(member);
    // Locked from the sign-in form, where sessions are not ended (docs/PRODUCT.md §11).
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: member.email, password: 'wrong at sign-in' });
    }

    const response = await changePassword(token, {
      current_password: member.password,
      password: NEW_PASSWORD,
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG_CURRENT);
    const reloaded = await reloadUser(api.db, member.user.id);
    expect(await verifyPassword(member.password, reloaded.passwordHash)).toBe(true);
  });
});

describe('the rate limits of PATCH /api/v1/users', () => {
  it('allows 10 an hour per member, then answers 429 with Retry-After', async () => {
    const { member, token } = await signedIn();
    const body = { current_password: member.password, password: 'short' };

    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await changePassword(token, body)).status).toBe(422);
    }
    const refused = await changePassword(token, body);

    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: 'Too many attempts. Please wait a few minutes and try again.',
    });
  });

  it('allows 30 an hour per client address, whichever member calls', async () => {
    const clientAddress = randomClientAddress();
    const members = await Promise.all([1, 2, 3, 4].map(() => signedIn()));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      const caller = members[attempt % members.length];
      if (!caller) throw new Error('No member to call as.');
      const { member, token } = caller;
      const response = await changePassword(
        token,
        { current_password: member.password, password: 'short' },
        { clientAddress },
      );
      statuses.push(response.status);
    }

    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
