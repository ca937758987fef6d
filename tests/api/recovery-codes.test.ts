import { randomInt } from 'node:crypto';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  oneTimeCodes,
  recoveryCodes,
  secondStepFailures,
  securityEvents,
  users,
} from '../../api/db/schema/index.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { issueRecoveryCodes } from '../../api/services/factors/recovery-code-store.ts';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import {
  codeFromText,
  reloadUser,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  tokenFromLink,
  type TestApi,
  type TestUserOptions,
} from './support.ts';

/**
 * Recovery codes and the rest of the second step (docs/PRODUCT.md §11.2, §12): the set made with
 * the first authenticator app, POST /mfa/verify with `method: "recovery_code"`, a new set with
 * POST /mfa/recovery-codes, the codes' end with the last factor, DELETE /mfa/phone, and the
 * order in which GET /mfa lists the factors.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const MFA_REQUIRED = { error: 'MFA authentication required' };
const INVALID_RECOVERY_CODE = {
  error: 'That recovery code is not right, or it has been used already.',
};
const WRONG_PASSWORD = {
  error: 'Your current password is not right.',
  field: 'user.current_password',
};
const LAST_FACTOR_REQUIRED = {
  error:
    'Your company requires two-step verification: add another way to sign in before you remove this one.',
};
const SHOWN_CODE = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const REQUIRED_COMPANY = { companyName: 'Northwind Secure', companyRequiresMfa: true };

const startSetup = (token: string, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/app', { token, mfaToken });
const confirm = (token: string, otp: string, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/app/confirm', { token, mfaToken, body: { otp } });
const verify = (token: string, otp: string, method?: string) =>
  api.call('POST', '/api/v1/mfa/verify', { token, body: { otp, method } });
const withRecoveryCode = (token: string, code: string) => verify(token, code, 'recovery_code');
const withPassword = (currentPassword: string) => ({
  user: { current_password: currentPassword },
});
const renew = (token: string, mfaToken: string | undefined, currentPassword: string) =>
  api.call('POST', '/api/v1/mfa/recovery-codes', {
    token,
    mfaToken,
    body: withPassword(currentPassword),
  });
const removePhone = (token: string, mfaToken: string | undefined, currentPassword: string) =>
  api.call('DELETE', '/api/v1/mfa/phone', { token, mfaToken, body: withPassword(currentPassword) });
const removeApp = (token: string, mfaToken: string | undefined, currentPassword: string) =>
  api.call('DELETE', '/api/v1/mfa/app', { token, mfaToken, body: withPassword(currentPassword) });

interface Status {
  enrolled: boolean;
  methods: string[];
  recovery_codes_left: number;
}

const mfaStatus = async (token: string, mfaToken?: string) =>
  (await (await api.call('GET', '/api/v1/mfa', { token, mfaToken })).json()) as Status;

/** The code an app showing `secret` displays now, or `steps` periods from now. */
function appCode(secret: Uint8Array, steps = 0): string {
  return totpCodeAt(secret, totpStep(api.clock.now()) + steps);
}

/** Moves the clock to the next 30-second step, so that the app shows a new code. */
function nextStep() {
  api.clock.advanceBy(30 * SECOND);
}

/** A US number of its own for each test, so that the texts to it are that test's alone. */
function uniquePhone(): { e164: string; lastDigits: string } {
  const line = String(randomInt(0, 10_000_000)).padStart(7, '0');
  return { e164: `+1555${line}`, lastDigits: line.slice(-2) };
}

async function signedIn(options: TestUserOptions = {}) {
  const account = await api.createUser(options);
  const token = await api.signInToken(account);
  return { account, token };
}

/** A member with a confirmed app, signed in with a session that proved it, and the codes shown. */
async function memberWithApp(options: TestUserOptions = {}) {
  const { account, token } = await signedIn(options);
  const setup = (await (await startSetup(token)).json()) as { secret: string };
  const secret = decodeBase32IgnorePadding(setup.secret);
  const confirmed = await confirm(token, appCode(secret));
  expect(confirmed.status).toBe(200);
  const { recovery_codes: codes } = (await confirmed.json()) as { recovery_codes: string[] };
  return { account, token, secret, codes, mfaToken: confirmed.headers.get('mfa-token') ?? '' };
}

/** Takes the MFA step of a session with the code texted to `phone`; returns the mfa token. */
async function verifyTextedCode(token: string, phone: string): Promise<string> {
  expect((await api.call('POST', '/api/v1/mfa/send-otp', { token })).status).toBe(200);
  const text = (await api.mailTo(phone)).at(-1);
  if (!text) throw new Error(`No text to ${phone}.`);
  const response = await verify(token, codeFromText(text.textBody));
  expect(response.status).toBe(200);
  return response.headers.get('mfa-token') ?? '';
}

/** A member whose only factor is a phone, signed in with a session that proved it. */
async function memberWithPhone(options: TestUserOptions = {}) {
  const phone = uniquePhone();
  const { account, token } = await signedIn({ ...options, mfaPhone: phone.e164 });
  const mfaToken = await verifyTextedCode(token, phone.e164);
  return { account, token, phone, mfaToken };
}

/** Gives the member a phone as well, straight in the database. */
async function addPhone(userId: number) {
  const phone = uniquePhone();
  await api.db.update(users).set({ mfaPhone: phone.e164 }).where(eq(users.id, userId));
  return phone;
}

async function storedCodes(userId: number) {
  return api.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id));
  return rows.map((row) => row.kind).reverse();
}

async function lastMailTo(email: string) {
  const mail = (await api.mailTo(email)).at(-1);
  if (!mail) throw new Error(`No email to ${email}.`);
  return mail;
}

describe('the first set of recovery codes', () => {
  it('comes with the first authenticator app: ten codes, shown once and kept only hashed', async () => {
    const { account, token, codes, mfaToken } = await memberWithApp();

    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(SHOWN_CODE);
    expect(new Set(codes).size).toBe(10);
    const stored = await storedCodes(account.user.id);
    expect(stored).toHaveLength(10);
    const kept = JSON.stringify(stored);
    for (const code of codes) {
      expect(kept).not.toContain(code);
      expect(kept).not.toContain(code.replace('-', ''));
    }
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(10);
  });

  it('is not made again by a new app while the member has unused codes', async () => {
    const { account, token, codes, mfaToken } = await memberWithApp();
    const setup = (await (await startSetup(token, mfaToken)).json()) as { secret: string };
    nextStep();

    const replaced = await confirm(
      token,
      appCode(decodeBase32IgnorePadding(setup.secret)),
      mfaToken,
    );

    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({ success: true });
    expect(await storedCodes(account.user.id)).toHaveLength(10);
    const later = await api.signInToken(account);
    expect((await withRecoveryCode(later, codes[0] ?? '')).status).toBe(200);
  });
});

describe('signing in with a recovery code', () => {
  it('takes the MFA step and spends the code; the member is emailed how many are left', async () => {
    const { account, codes } = await memberWithApp();
    const token = await api.signInToken(account);
    expect((await api.getCurrentUser(token)).status).toBe(401);

    const response = await withRecoveryCode(token, codes[0] ?? '');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, recovery_codes_left: 9 });
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect(mfaToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(9);
    const mail = await lastMailTo(account.email);
    expect(mail.subject).toBe(
      'A recovery code was used to sign in to your Member Concierge account',
    );
    expect(mail.textBody).toContain('You have 9 unused recovery codes left.');
    expect(mail.textBody).not.toContain(`${TEST_PUBLIC_ORIGIN}/account/security`);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('recovery_code_used');
  });

  it('refuses a code used already, in any session', async () => {
    const { account, codes } = await memberWithApp();
    const code = codes[1] ?? '';
    expect((await withRecoveryCode(await api.signInToken(account), code)).status).toBe(200);

    const replayed = await withRecoveryCode(await api.signInToken(account), code);

    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toEqual(INVALID_RECOVERY_CODE);
    expect(replayed.headers.get('mfa-token')).toBeNull();
  });

  it(
    'accepts one of two requests sending the same code at the same moment',
    { tags: ['database'] },
    async () => {
      const { account, codes } = await memberWithApp();
      const sessions = [await api.signInToken(account), await api.signInToken(account)];

      const answers = await Promise.all(
        sessions.map((token) => withRecoveryCode(token, codes[0] ?? '')),
      );

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
      expect((await mfaStatus(sessions[0] ?? '')).recovery_codes_left).toBe(9);
    },
  );

  it('refuses a code of another member', async () => {
    const owner = await memberWithApp();
    const other = await memberWithApp();
    const token = await api.signInToken(other.account);

    const response = await withRecoveryCode(token, owner.codes[0] ?? '');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_RECOVERY_CODE);
    expect((await mfaStatus(token)).recovery_codes_left).toBe(10);
  });

  it('accepts a code typed in capitals, with a space for the hyphen, without it, or padded', async () => {
    const { account, codes } = await memberWithApp();
    const typed = [
      (codes[0] ?? '').toUpperCase(),
      (codes[1] ?? '').replace('-', ' '),
      (codes[2] ?? '').replace('-', ''),
      `  ${codes[3] ?? ''} `,
    ];

    for (const code of typed) {
      const response = await withRecoveryCode(await api.signInToken(account), code);
      expect(response.status).toBe(200);
    }
    expect(await storedCodes(account.user.id)).toHaveLength(10);
    const unused = await api.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, account.user.id), isNull(recoveryCodes.usedAt)));
    expect(unused).toHaveLength(6);
  });

  it('refuses a reply that is not a code without counting it as a wrong try', async () => {
    const { account, codes } = await memberWithApp();
    const token = await api.signInToken(account);

    for (const reply of ['abcde', 'abcde-fghij-k', '123456', 'abcde-fgh01']) {
      const response = await withRecoveryCode(token, reply);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(INVALID_RECOVERY_CODE);
    }

    const failures = await api.db
      .select()
      .from(secondStepFailures)
      .where(eq(secondStepFailures.userId, account.user.id));
    expect(failures).toHaveLength(0);
    expect((await withRecoveryCode(token, codes[0] ?? '')).status).toBe(200);
  });

  it('asks for a new set in the email once 3 or fewer codes are left', async () => {
    const { account, codes } = await memberWithApp();

    for (const code of codes.slice(0, 7)) {
      api.clock.advanceBy(MINUTE);
      expect((await withRecoveryCode(await api.signInToken(account), code)).status).toBe(200);
    }

    const mail = await lastMailTo(account.email);
    expect(mail.textBody).toContain('You have 3 unused recovery codes left.');
    expect(mail.textBody).toContain('Sign-in and security');
    expect(mail.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/account/security`);
  });

  it('counts wrong codes toward the pause of the account’s codes, after which a right one is refused too', async () => {
    const { account, codes } = await memberWithApp();
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      // Slower than the limit on checks per 10 minutes, which would answer 429 first.
      api.clock.advanceBy(2 * MINUTE);
      const token = await api.signInToken(account);
      const answer = await withRecoveryCode(token, 'zzzzz-zzzzz');
      expect(answer.status).toBe(attempt < 20 ? 422 : 403);
    }

    const rightCode = await withRecoveryCode(await api.signInToken(account), codes[0] ?? '');

    expect(rightCode.status).toBe(403);
    expect(((await rightCode.json()) as { error: string }).error).toMatch(/paused/);
    expect((await lastMailTo(account.email)).subject).toMatch(/paused/i);
    expect((await storedCodes(account.user.id)).filter((row) => row.usedAt === null)).toHaveLength(
      10,
    );
  });

  it('is refused to a member without a second factor, even one who somehow kept codes', async () => {
    const { account, token } = await signedIn();
    const [code] = await issueRecoveryCodes(api.db, account.user.id, api.clock.now());

    const response = await withRecoveryCode(token, code ?? '');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_RECOVERY_CODE);
  });

  it('leaves the factor the step offers first as it was', async () => {
    const { account, codes } = await memberWithApp();
    await addPhone(account.user.id);
    const token = await api.signInToken(account);

    const response = await withRecoveryCode(token, codes[0] ?? '');

    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect((await mfaStatus(token, mfaToken)).methods).toEqual(['app', 'sms']);
    expect((await reloadUser(api.db, account.user.id)).lastSecondFactor).toBe('app');
  });
});

describe('POST /api/v1/mfa/recovery-codes', () => {
  it('makes a new set with the current password: the old codes stop working, the member is emailed, the change recorded', async () => {
    const { account, token, codes, mfaToken } = await memberWithApp();
    expect((await withRecoveryCode(await api.signInToken(account), codes[0] ?? '')).status).toBe(
      200,
    );

    const response = await renew(token, mfaToken, account.password);

    expect(response.status).toBe(201);
    const { recovery_codes: renewed } = (await response.json()) as { recovery_codes: string[] };
    expect(renewed).toHaveLength(10);
    for (const code of renewed) expect(code).toMatch(SHOWN_CODE);
    expect(renewed.filter((code) => codes.includes(code))).toEqual([]);
    // The used code goes with the others: one set, all of it new.
    expect(await storedCodes(account.user.id)).toHaveLength(10);
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(10);
    const mail = await lastMailTo(account.email);
    expect(mail.subject).toBe('New recovery codes for your Member Concierge account');
    expect(mail.textBody).toContain('The codes made before no longer work');
    expect((await eventKinds(account.user.id)).at(-1)).toBe('recovery_codes_renewed');

    const later = await api.signInToken(account);
    expect((await withRecoveryCode(later, codes[1] ?? '')).status).toBe(422);
    expect((await withRecoveryCode(later, renewed[0] ?? '')).status).toBe(200);
  });

  it('makes a set for a member whose only factor is a phone', async () => {
    const { account, token, mfaToken } = await memberWithPhone();
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(0);

    const response = await renew(token, mfaToken, account.password);

    expect(response.status).toBe(201);
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(10);
  });

  it('refuses a wrong current password under its field, keeps the codes, and counts it toward the lockout', async () => {
    const { account, token, codes, mfaToken } = await memberWithApp();

    const response = await renew(token, mfaToken, 'not the password');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG_PASSWORD);
    expect((await reloadUser(api.db, account.user.id)).failedAttempts).toBe(1);
    expect((await withRecoveryCode(await api.signInToken(account), codes[0] ?? '')).status).toBe(
      200,
    );
  });

  it('takes a session past its MFA step: the password step alone gets 401', async () => {
    const { account } = await memberWithApp();
    const passwordOnly = await api.signInToken(account);

    const response = await renew(passwordOnly, undefined, account.password);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
    expect(await storedCodes(account.user.id)).toHaveLength(10);
  });

  it('is refused to a member without two-step verification', async () => {
    const { account, token } = await signedIn();

    const response = await renew(token, undefined, account.password);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Turn on two-step verification before making recovery codes.',
    });
    expect(await storedCodes(account.user.id)).toHaveLength(0);
  });

  it('answers 429 after 10 new sets in an hour by one member', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await renew(token, mfaToken, account.password)).status).toBe(201);
    }
    const refused = await renew(token, mfaToken, account.password);

    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});

describe('recovery codes end with two-step verification', () => {
  it('go when two-step verification is turned off', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    const response = await api.call('DELETE', '/api/v1/mfa', {
      token,
      mfaToken,
      body: withPassword(account.password),
    });

    expect(response.status).toBe(204);
    expect(await storedCodes(account.user.id)).toHaveLength(0);
    expect((await mfaStatus(token, mfaToken)).recovery_codes_left).toBe(0);
  });

  it('stay while a factor is left, and go with the last one', async () => {
    const { account, token, mfaToken } = await memberWithApp();
    await addPhone(account.user.id);

    expect((await removeApp(token, mfaToken, account.password)).status).toBe(204);
    expect(await storedCodes(account.user.id)).toHaveLength(10);

    expect((await removePhone(token, mfaToken, account.password)).status).toBe(204);
    expect(await storedCodes(account.user.id)).toHaveLength(0);
  });

  it('go when a reset proves an unproven address and clears the factors set up with it', async () => {
    const { account } = await memberWithApp();
    await api.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, account.user.id));
    expect((await api.requestPasswordReset(account.email)).status).toBe(200);
    const resetToken = tokenFromLink((await lastMailTo(account.email)).textBody, 'reset-password');

    const response = await api.resetPassword({
      reset_password_token: resetToken,
      password: 'a brand new passphrase',
      password_confirmation: 'a brand new passphrase',
    });

    expect(response.status).toBe(200);
    expect((await reloadUser(api.db, account.user.id)).totpConfirmedAt).toBeNull();
    expect(await storedCodes(account.user.id)).toHaveLength(0);
  });

  it('stay after a reset of a proven address, which keeps the factors', async () => {
    const { account } = await memberWithApp();
    expect((await api.requestPasswordReset(account.email)).status).toBe(200);
    const resetToken = tokenFromLink((await lastMailTo(account.email)).textBody, 'reset-password');

    const response = await api.resetPassword({
      reset_password_token: resetToken,
      password: 'a brand new passphrase',
      password_confirmation: 'a brand new passphrase',
    });

    expect(response.status).toBe(200);
    expect(await storedCodes(account.user.id)).toHaveLength(10);
  });

  it('go with the account', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    const response = await api.call('DELETE', '/api/v1/users', {
      token,
      mfaToken,
      body: withPassword(account.password),
    });

    expect(response.status).toBe(204);
    expect(await storedCodes(account.user.id)).toHaveLength(0);
  });
});

describe('DELETE /api/v1/mfa/phone', () => {
  it('removes the only phone with the current password: two-step verification is off, the member emailed', async () => {
    const { account, token, phone, mfaToken } = await memberWithPhone();
    // A code texted to another session meanwhile dies with the phone.
    const other = await api.signInToken(account);
    expect((await api.call('POST', '/api/v1/mfa/send-otp', { token: other })).status).toBe(200);
    const pending = codeFromText((await api.mailTo(phone.e164)).at(-1)?.textBody ?? '');

    const response = await removePhone(token, mfaToken, account.password);

    expect(response.status).toBe(204);
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({ mfaPhone: null, pendingMfaPhone: null, lastSecondFactor: null });
    // Its only factor gone, the member is not offered a new one at once, as after DELETE /mfa.
    expect(user.mfaDeclinedAt).toEqual(api.clock.now());
    const unused = await api.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, account.user.id), isNull(oneTimeCodes.usedAt)));
    expect(unused).toHaveLength(0);
    expect((await verify(other, pending)).status).toBe(422);
    const mail = await lastMailTo(account.email);
    expect(mail.subject).toBe(
      'The phone was removed from two-step verification for your Member Concierge account',
    );
    expect(mail.textBody).toContain(`ending ${phone.lastDigits}`);
    expect(mail.textBody).not.toContain(phone.e164);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('two_step_phone_removed');
    expect(await (await api.signIn(account)).json()).toMatchObject({
      mfa_required: false,
      mfa_requires_verification: false,
    });
  });

  it('keeps the app, its recovery codes and the offer when the phone is removed', async () => {
    const { account, token, mfaToken } = await memberWithApp();
    await addPhone(account.user.id);

    expect((await removePhone(token, mfaToken, account.password)).status).toBe(204);

    const user = await reloadUser(api.db, account.user.id);
    expect(user.mfaPhone).toBeNull();
    expect(user.totpConfirmedAt).not.toBeNull();
    expect(user.mfaDeclinedAt).toBeNull();
    expect(await mfaStatus(token, mfaToken)).toMatchObject({
      enrolled: true,
      methods: ['app'],
      recovery_codes_left: 10,
    });
  });

  it('refuses to remove the only factor where the company requires two-step verification', async () => {
    const { account, token, mfaToken } = await memberWithPhone(REQUIRED_COMPANY);

    const response = await removePhone(token, mfaToken, account.password);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(LAST_FACTOR_REQUIRED);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).not.toBeNull();
  });

  it('removes it where the company requires the step when an app is left', async () => {
    const { account, token, mfaToken } = await memberWithApp(REQUIRED_COMPANY);
    await addPhone(account.user.id);

    expect((await removePhone(token, mfaToken, account.password)).status).toBe(204);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBeNull();
  });

  it('refuses a wrong current password under its field, keeping the phone', async () => {
    const { account, token, mfaToken } = await memberWithPhone();

    const response = await removePhone(token, mfaToken, 'not the password');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG_PASSWORD);
    const user = await reloadUser(api.db, account.user.id);
    expect(user.mfaPhone).not.toBeNull();
    expect(user.failedAttempts).toBe(1);
  });

  it('answers 422 when there is no phone', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    const response = await removePhone(token, mfaToken, account.password);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'There is no phone to remove from two-step verification.',
    });
  });

  it('takes a session past its MFA step: a password alone cannot remove the phone', async () => {
    const { account } = await memberWithPhone();
    const passwordOnly = await api.signInToken(account);

    const response = await removePhone(passwordOnly, undefined, account.password);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });
});

describe('the order of the factors the step offers', () => {
  it('puts the factor of the last successful step first', async () => {
    const { account, secret } = await memberWithApp();
    const phone = await addPhone(account.user.id);
    const first = await api.signInToken(account);
    expect((await mfaStatus(first)).methods).toEqual(['app', 'sms']);

    await verifyTextedCode(first, phone.e164);
    const second = await api.signInToken(account);
    expect((await mfaStatus(second)).methods).toEqual(['sms', 'app']);

    nextStep();
    expect((await verify(second, appCode(secret), 'app')).status).toBe(200);
    expect((await mfaStatus(await api.signInToken(account))).methods).toEqual(['app', 'sms']);
  });

  it('records the phone when its enrollment code is entered, then the app when it is confirmed', async () => {
    const { account, token } = await signedIn();
    const phone = uniquePhone();
    const typed = `(555) ${phone.e164.slice(5, 8)}-${phone.e164.slice(8)}`;
    expect(
      (await api.call('POST', '/api/v1/mfa', { token, body: { mfa_number: typed } })).status,
    ).toBe(200);
    const mfaToken = await verifyTextedCode(token, phone.e164);
    expect((await reloadUser(api.db, account.user.id)).lastSecondFactor).toBe('sms');

    const setup = (await (await startSetup(token, mfaToken)).json()) as { secret: string };
    const confirmed = await confirm(
      token,
      appCode(decodeBase32IgnorePadding(setup.secret)),
      mfaToken,
    );

    // A phone makes no codes; the app, the member's first strong factor, comes with a set.
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { recovery_codes?: string[] }).recovery_codes).toHaveLength(
      10,
    );
    expect((await mfaStatus(token, mfaToken)).methods).toEqual(['app', 'sms']);
    expect((await reloadUser(api.db, account.user.id)).lastSecondFactor).toBe('app');
  });
});
