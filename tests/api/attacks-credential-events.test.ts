import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedDevices, users } from '../../api/db/schema/index.ts';
import { issueAccountToken } from '../../api/services/sign-in/account-tokens.ts';
import { MINUTE } from '../../platform/clock.ts';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import {
  completeMfa,
  lastCodeTo,
  resetToken,
  sendOtp,
  uniquePhone,
  verifyOtp,
} from './attacks-support.ts';
import {
  reloadUser,
  startTestApi,
  TEST_PASSWORD,
  tokenFromLink,
  uniqueEmail,
  type TestApi,
  type TestUser,
} from './support.ts';

/**
 * Credential flows against each other (docs/PRODUCT.md §11.2; docs/SECURITY.md, "Credential
 * events"): the third outside review took accounts over with flows that each passed their own
 * tests. A link mailed before a credential event is refused after it, and adding a way to sign in
 * needs the password proven within the last few minutes.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NEW_PASSWORD = 'the owner chose this passphrase';
const ANOTHER_PASSWORD = 'and later another passphrase';

const SUPERSEDED_RESET =
  'This password reset link no longer works: your password, email address or two-step verification changed after it was sent. Please request a new one.';
const SUPERSEDED_CONFIRMATION =
  'This confirmation link no longer works: your password, email address or two-step verification changed after it was sent. Sign in to ask for a new one.';
const SUPERSEDED_UNLOCK =
  'This unlock link no longer works: your password, email address or two-step verification changed after it was sent. You can request a new one.';
const PASSWORD_AGAIN = {
  error: 'Enter your password again before you add a way to sign in.',
};

function confirmEmail(token: string) {
  return api.call('PUT', '/api/v1/users/confirmation', { body: { confirmation_token: token } });
}

function askEmailChange(session: string, email: string, password = TEST_PASSWORD) {
  return api.call('PATCH', '/api/v1/users/email', {
    token: session,
    body: { user: { email, current_password: password } },
  });
}

function changePassword(session: string, from: string, to: string, mfaToken?: string) {
  return api.call('PATCH', '/api/v1/users', {
    token: session,
    mfaToken,
    body: { user: { current_password: from, password: to, password_confirmation: to } },
  });
}

function resetWith(token: string, password = NEW_PASSWORD) {
  return api.resetPassword({
    reset_password_token: token,
    password,
    password_confirmation: password,
  });
}

function proveThePassword(session: string, password = TEST_PASSWORD, mfaToken?: string) {
  return api.call('POST', '/api/v1/users/reauthentication', {
    token: session,
    mfaToken,
    body: { user: { current_password: password } },
  });
}

async function confirmationLinkTo(email: string): Promise<string> {
  const mail = (await api.mailTo(email)).at(-1);
  if (!mail) throw new Error(`No mail to ${email}.`);
  return tokenFromLink(mail.textBody, 'confirm-email');
}

async function accountOf(email: string): Promise<TestUser> {
  const [user] = await api.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error(`No account for ${email}.`);
  return { user, email, password: '' };
}

describe('a pending email change and the owner’s credential events', () => {
  it('is void once the owner resets the password of a pre-registered account', async () => {
    const victimEmail = uniqueEmail();
    const attackerEmail = uniqueEmail();
    // The attacker signs up first with the victim's address and asks to move it to their own.
    expect(
      (
        await api.signUp({
          email: victimEmail,
          password: TEST_PASSWORD,
          name: 'Mallory',
          last_name: 'Attacker',
        })
      ).status,
    ).toBe(201);
    const attacker = await api.signInToken({ email: victimEmail, password: TEST_PASSWORD });
    expect((await askEmailChange(attacker, attackerEmail)).status).toBe(200);
    const attackersLink = await confirmationLinkTo(attackerEmail);

    // The owner claims the account with a reset link mailed to their address.
    const owner = await accountOf(victimEmail);
    expect((await resetWith(await resetToken(api, owner))).status).toBe(200);

    // The attacker's link no longer moves the address, and says why.
    const refused = await confirmEmail(attackersLink);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: SUPERSEDED_CONFIRMATION });
    const reloaded = await reloadUser(api.db, owner.user.id);
    expect(reloaded.email).toBe(victimEmail);
    // And the owner's account shows no change waiting.
    const ownerSession = await api.signInToken({ email: victimEmail, password: NEW_PASSWORD });
    expect(await (await api.getCurrentUser(ownerSession)).json()).toMatchObject({
      email: victimEmail,
      pending_email: null,
    });
  });

  it('is void once the owner changes the password', async () => {
    const member = await api.createUser();
    const thief = await api.signInToken(member);
    const thiefEmail = uniqueEmail();
    expect((await askEmailChange(thief, thiefEmail)).status).toBe(200);
    const thiefsLink = await confirmationLinkTo(thiefEmail);

    const owner = await api.signInToken(member);
    expect((await changePassword(owner, TEST_PASSWORD, NEW_PASSWORD)).status).toBe(200);

    const refused = await confirmEmail(thiefsLink);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: SUPERSEDED_CONFIRMATION });
    expect((await reloadUser(api.db, member.user.id)).email).toBe(member.email);
  });
});

describe('a reset link asked for before a password change', () => {
  it('is refused after the change, with the reason in words', async () => {
    const member = await api.createUser();
    const oldLink = await resetToken(api, member);
    const session = await api.signInToken(member);
    expect((await changePassword(session, TEST_PASSWORD, NEW_PASSWORD)).status).toBe(200);

    const refused = await resetWith(oldLink, ANOTHER_PASSWORD);

    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: SUPERSEDED_RESET,
      status: { message: SUPERSEDED_RESET },
    });
    expect((await api.signIn({ email: member.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('still works when nothing changed since it was sent', async () => {
    const member = await api.createUser();
    const link = await resetToken(api, member);
    await api.signInToken(member);
    expect((await resetWith(link)).status).toBe(200);
  });
});

describe('a session that has not proved the password lately', () => {
  /** A member with no second factor, and a session that signed in eleven minutes ago. */
  async function staleSession() {
    const member = await api.createUser();
    const session = await api.signInToken(member);
    api.clock.advanceBy(11 * MINUTE);
    return { member, session };
  }

  it('cannot start adding a passkey, an authenticator app or a phone', async () => {
    const { session } = await staleSession();
    const attempts = [
      api.call('POST', '/api/v1/mfa/passkeys/registration-options', { token: session, body: {} }),
      api.call('POST', '/api/v1/mfa/passkeys', { token: session, body: {} }),
      api.call('POST', '/api/v1/mfa/app', { token: session }),
      api.call('POST', '/api/v1/mfa/app/confirm', { token: session, body: { otp: '123456' } }),
      api.call('POST', '/api/v1/mfa', {
        token: session,
        body: { mfa_number: uniquePhone().typed },
      }),
    ];
    for (const refused of await Promise.all(attempts)) {
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual(PASSWORD_AGAIN);
    }
  });

  it('cannot finish an app set up while the proof was fresh', async () => {
    const member = await api.createUser();
    const session = await api.signInToken(member);
    const setup = await api.call('POST', '/api/v1/mfa/app', { token: session });
    expect(setup.status).toBe(200);
    const secret = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
    api.clock.advanceBy(11 * MINUTE);

    const refused = await api.call('POST', '/api/v1/mfa/app/confirm', {
      token: session,
      body: { otp: totpCodeAt(secret, totpStep(api.clock.now())) },
    });

    expect(refused.status).toBe(403);
    expect((await reloadUser(api.db, member.user.id)).totpConfirmedAt).toBeNull();
  });

  it('may add one once the password is given again, for ten minutes', async () => {
    const { session } = await staleSession();
    const wrong = await proveThePassword(session, 'not the password');
    expect(wrong.status).toBe(422);
    expect((await proveThePassword(session)).status).toBe(204);

    const setup = await api.call('POST', '/api/v1/mfa/app', { token: session });
    expect(setup.status).toBe(200);
    api.clock.advanceBy(11 * MINUTE);
    expect((await api.call('POST', '/api/v1/mfa/app', { token: session })).status).toBe(403);
  });

  it('shows in the two-step status whether the password was proven lately', async () => {
    const member = await api.createUser();
    const session = await api.signInToken(member);
    const status = async () =>
      (
        (await (await api.call('GET', '/api/v1/mfa', { token: session })).json()) as {
          recently_proven: boolean;
        }
      ).recently_proven;
    expect(await status()).toBe(true);
    api.clock.advanceBy(11 * MINUTE);
    expect(await status()).toBe(false);
  });

  it('counts wrong passwords given again toward the lockout', async () => {
    const { member, session } = await staleSession();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await proveThePassword(session, 'a wrong password')).status).toBe(422);
    }
    expect((await reloadUser(api.db, member.user.id)).failedAttempts).toBe(3);
  });

  it('of a member with a second factor still needs the second step as well', async () => {
    const phone = uniquePhone();
    const member = await api.createUser({ mfaPhone: phone.e164 });
    const session = await api.signInToken(member);
    expect((await proveThePassword(session)).status).toBe(401);
    const mfaToken = await completeMfa(api, session, phone.e164);
    expect((await proveThePassword(session, TEST_PASSWORD, mfaToken)).status).toBe(204);
  });
});

describe('the owner’s own journey', () => {
  it('adds a phone right after signing in, without giving the password again', async () => {
    const member = await api.createUser();
    const session = await api.signInToken(member);
    const phone = uniquePhone();
    expect(
      (await api.call('POST', '/api/v1/mfa', { token: session, body: { mfa_number: phone.typed } }))
        .status,
    ).toBe(200);
    expect((await sendOtp(api, session)).status).toBe(200);
    expect((await verifyOtp(api, session, await lastCodeTo(api, phone.e164))).status).toBe(200);
  });
});

/**
 * The table of docs/SECURITY.md ("Credential events"), row by row: what each event ends. Every
 * row starts from a member with a phone, this session past its step (and remembering its
 * browser), another live session, and an unspent reset, unlock and email-change link.
 */
describe('what each credential event ends', () => {
  interface Scene {
    member: TestUser;
    phone: string;
    session: string;
    mfaToken: string;
    otherSession: string;
    otherMfaToken: string;
    links: { reset: string; unlock: string; change: string; newEmail: string };
  }

  async function scene(): Promise<Scene> {
    const phone = uniquePhone();
    const member = await api.createUser({ mfaPhone: phone.e164 });
    await api.db
      .update(users)
      .set({ emailVerifiedAt: api.clock.now() })
      .where(eq(users.id, member.user.id));
    const otherSession = await api.signInToken(member);
    const otherMfaToken = await completeMfa(api, otherSession, phone.e164);
    const session = await api.signInToken(member);
    expect((await sendOtp(api, session)).status).toBe(200);
    const verified = await api.call('POST', '/api/v1/mfa/verify', {
      token: session,
      body: { otp: await lastCodeTo(api, phone.e164), remember_device: true },
    });
    expect(verified.status).toBe(200);
    const mfaToken = verified.headers.get('mfa-token') ?? '';
    const newEmail = uniqueEmail();
    expect(
      (
        await api.call('PATCH', '/api/v1/users/email', {
          token: session,
          mfaToken,
          body: { user: { email: newEmail, current_password: TEST_PASSWORD } },
        })
      ).status,
    ).toBe(200);
    const change = await confirmationLinkTo(newEmail);
    const reset = await resetToken(api, member);
    const unlock = await issueAccountToken(api.db, member.user.id, 'unlock', api.clock.now());
    return {
      member,
      phone: phone.e164,
      session,
      mfaToken,
      otherSession,
      otherMfaToken,
      links: { reset, unlock, change, newEmail },
    };
  }

  interface Ending {
    sessions: 'all' | 'others' | 'none';
    rememberedDevices: 'forgotten' | 'kept';
  }

  async function expectEnded(s: Scene, ending: Ending, spent: 'reset' | 'change' | null) {
    const current = (await api.getCurrentUser(s.session, s.mfaToken)).status;
    const other = (await api.getCurrentUser(s.otherSession, s.otherMfaToken)).status;
    expect({ current, other }).toEqual({
      current: ending.sessions === 'all' ? 401 : 200,
      other: ending.sessions === 'none' ? 200 : 401,
    });
    const devices = await api.db
      .select()
      .from(rememberedDevices)
      .where(eq(rememberedDevices.userId, s.member.user.id));
    expect(devices.length > 0 ? 'kept' : 'forgotten').toBe(ending.rememberedDevices);

    // Every link mailed before the event is refused, and says why.
    if (spent !== 'reset') {
      const reset = await resetWith(s.links.reset, ANOTHER_PASSWORD);
      expect(reset.status).toBe(422);
      expect(((await reset.json()) as { error: string }).error).toBe(SUPERSEDED_RESET);
    }
    if (spent !== 'change') {
      const change = await confirmEmail(s.links.change);
      expect(change.status).toBe(422);
      expect(await change.json()).toEqual({ error: SUPERSEDED_CONFIRMATION });
    }
    const unlock = await api.unlock(s.links.unlock);
    expect(unlock.status).toBe(422);
    expect(await unlock.json()).toEqual({ error: SUPERSEDED_UNLOCK });
  }

  it('a password reset ends every session and remembered device and every older link', async () => {
    const s = await scene();
    expect((await resetWith(s.links.reset)).status).toBe(200);
    await expectEnded(s, { sessions: 'all', rememberedDevices: 'forgotten' }, 'reset');
  });

  it('a password change ends the other sessions, every remembered device and every link', async () => {
    const s = await scene();
    expect((await changePassword(s.session, TEST_PASSWORD, NEW_PASSWORD, s.mfaToken)).status).toBe(
      200,
    );
    await expectEnded(s, { sessions: 'others', rememberedDevices: 'forgotten' }, null);
  });

  it('a confirmed email change ends every older link and nothing else', async () => {
    const s = await scene();
    expect((await confirmEmail(s.links.change)).status).toBe(200);
    await expectEnded(s, { sessions: 'none', rememberedDevices: 'kept' }, 'change');
  });

  it('a factor added ends every older link and nothing else', async () => {
    const s = await scene();
    const setup = await api.call('POST', '/api/v1/mfa/app', {
      token: s.session,
      mfaToken: s.mfaToken,
    });
    expect(setup.status).toBe(200);
    const secret = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
    const confirmed = await api.call('POST', '/api/v1/mfa/app/confirm', {
      token: s.session,
      mfaToken: s.mfaToken,
      body: { otp: totpCodeAt(secret, totpStep(api.clock.now())) },
    });
    expect(confirmed.status).toBe(200);
    s.mfaToken = confirmed.headers.get('mfa-token') ?? s.mfaToken;
    await expectEnded(s, { sessions: 'none', rememberedDevices: 'kept' }, null);
  });

  it('the last factor removed ends every remembered device and every link', async () => {
    const s = await scene();
    const removed = await api.call('DELETE', '/api/v1/mfa/phone', {
      token: s.session,
      mfaToken: s.mfaToken,
      body: { user: { current_password: TEST_PASSWORD } },
    });
    expect(removed.status).toBe(204);
    await expectEnded(s, { sessions: 'none', rememberedDevices: 'forgotten' }, null);
  });

  it('two-step verification turned off ends every remembered device and every link', async () => {
    const s = await scene();
    const off = await api.call('DELETE', '/api/v1/mfa', {
      token: s.session,
      mfaToken: s.mfaToken,
      body: { user: { current_password: TEST_PASSWORD } },
    });
    expect(off.status).toBe(204);
    await expectEnded(s, { sessions: 'none', rememberedDevices: 'forgotten' }, null);
  });

  it('an unlock link ends every session and remembered device, and leaves the other links', async () => {
    const s = await scene();
    expect((await api.unlock(s.links.unlock)).status).toBe(200);
    expect((await api.getCurrentUser(s.session, s.mfaToken)).status).toBe(401);
    expect((await api.getCurrentUser(s.otherSession, s.otherMfaToken)).status).toBe(401);
    expect(
      await api.db
        .select()
        .from(rememberedDevices)
        .where(eq(rememberedDevices.userId, s.member.user.id)),
    ).toEqual([]);
    // Not a credential event: the reset link still works.
    expect((await resetWith(s.links.reset)).status).toBe(200);
  });

  it('a link issued after the event works', async () => {
    const s = await scene();
    expect((await resetWith(s.links.reset)).status).toBe(200);
    const newLink = await resetToken(api, s.member);
    expect((await resetWith(newLink, ANOTHER_PASSWORD)).status).toBe(200);
  });
});
