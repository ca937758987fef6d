import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../api/db/schema/index.ts';
import { resetToken, sendOtp, uniquePhone, verifyOtp, lastCodeTo } from './attacks-support.ts';
import { reloadUser, startTestApi, TEST_PASSWORD, uniqueEmail, type TestApi } from './support.ts';

/**
 * Signing up first with someone else's address (docs/PRODUCT.md §11.2): an outside review locked
 * a real owner out so, by enrolling its own phone on the account before the owner ever used it.
 * The owner's way in is a password reset, mailed to the address; it proves the address, and on an
 * account whose address was unproven it clears every factor someone else set up and ends every
 * session.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NEW_PASSWORD = 'the owner chose this passphrase';

async function signInFlags(email: string, password: string) {
  const response = await api.signIn({ email, password });
  expect(response.status).toBe(200);
  const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1] ?? '';
  return { token, flags: (await response.json()) as Record<string, unknown> };
}

describe('an attacker who signs up first with the victim’s address', () => {
  it('loses the account, its phone and its session when the owner resets the password', async () => {
    const victimEmail = uniqueEmail();
    const attackerPhone = uniquePhone();

    // The attacker signs up with the victim's address and enrolls their own phone.
    const signUp = await api.signUp({
      email: victimEmail,
      password: TEST_PASSWORD,
      name: 'Mallory',
      last_name: 'Attacker',
    });
    expect(signUp.status).toBe(201);
    const attacker = await api.signInToken({ email: victimEmail, password: TEST_PASSWORD });
    expect(
      (
        await api.call('POST', '/api/v1/mfa', {
          token: attacker,
          body: { mfa_number: attackerPhone.typed },
        })
      ).status,
    ).toBe(200);
    expect((await sendOtp(api, attacker)).status).toBe(200);
    const verified = await verifyOtp(api, attacker, await lastCodeTo(api, attackerPhone.e164));
    expect(verified.status).toBe(200);
    const attackerMfa = verified.headers.get('mfa-token') ?? '';
    expect((await api.getCurrentUser(attacker, attackerMfa)).status).toBe(200);

    // The victim resets the password with the link mailed to their address.
    const [account] = await api.db.select().from(users).where(eq(users.email, victimEmail));
    if (!account) throw new Error('No account.');
    const link = await resetToken(api, { user: account, email: victimEmail, password: '' });
    const reset = await api.resetPassword({
      reset_password_token: link,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);

    // Signed in, the victim is offered enrollment of their own phone, not a code on the attacker's.
    const textsBefore = (await api.mailTo(attackerPhone.e164)).length;
    const victim = await signInFlags(victimEmail, NEW_PASSWORD);
    expect(victim.flags).toMatchObject({ mfa_requires_verification: true, mfa_required: false });
    const current = await api.getCurrentUser(victim.token);
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({
      email_verified: true,
      mfa_enrolled: false,
      phone_last_digits: null,
    });
    expect((await api.mailTo(attackerPhone.e164)).length).toBe(textsBefore);
    const reloaded = await reloadUser(api.db, account.id);
    expect(reloaded).toMatchObject({
      mfaPhone: null,
      pendingMfaPhone: null,
      mfaDeclinedAt: null,
      mfaCodesPausedAt: null,
    });
    expect(reloaded.emailVerifiedAt).not.toBeNull();

    // The attacker's session is dead.
    expect((await api.getCurrentUser(attacker, attackerMfa)).status).toBe(401);
  });

  it('keeps the factors of an account whose address was already proven', async () => {
    const phone = uniquePhone();
    const member = await api.createUser({ mfaPhone: phone.e164 });
    await api.db
      .update(users)
      .set({ emailVerifiedAt: api.clock.now() })
      .where(eq(users.id, member.user.id));

    const reset = await api.resetPassword({
      reset_password_token: await resetToken(api, member),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });

    expect(reset.status).toBe(200);
    expect((await reloadUser(api.db, member.user.id)).mfaPhone).toBe(phone.e164);
  });
});
