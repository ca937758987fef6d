import { randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, securityEvents, users } from '../../api/db/schema/index.ts';
import { HOUR, MINUTE, SECOND } from '../../platform/clock.ts';
import {
  codeFromText,
  reloadUser,
  startTestApi,
  type TestApi,
  type TestUserOptions,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const DAY = 24 * HOUR;
const MFA_REQUIRED = { error: 'MFA authentication required' };
const UNABLE_TO_VERIFY = { error: 'Unable to verify MFA token' };
const INVALID_NUMBER = 'Enter a 10-digit US phone number, e.g. (555) 123-4567.';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A US number of its own for each test, so that the texts to it are that test's alone. */
function uniquePhone(): { typed: string; e164: string; lastDigits: string } {
  const line = String(randomInt(0, 10_000_000)).padStart(7, '0');
  const typed = `(555) ${line.slice(0, 3)}-${line.slice(3)}`;
  return { typed, e164: `+1555${line}`, lastDigits: line.slice(-2) };
}

/** Any 6-digit code but `code`. */
function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

async function signedIn(options: TestUserOptions = {}) {
  const account = await api.createUser(options);
  const signIn = await api.signIn(account);
  const token = /^Bearer (.+)$/.exec(signIn.headers.get('Authorization') ?? '')?.[1] ?? '';
  const { mfa_requires_verification, mfa_required } = (await signIn.json()) as {
    mfa_requires_verification: boolean;
    mfa_required: boolean;
  };
  const flags = { mfa_requires_verification, mfa_required };
  return { account, token, flags };
}

async function signInFlags(account: { email: string; password: string }) {
  const { mfa_requires_verification, mfa_required } = (await (
    await api.signIn(account)
  ).json()) as { mfa_requires_verification: boolean; mfa_required: boolean };
  return { mfa_requires_verification, mfa_required };
}

const enroll = (token: string, mfaNumber: unknown, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa', { token, mfaToken, body: { mfa_number: mfaNumber } });
const sendOtp = (token: string, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/send-otp', { token, mfaToken });
const verify = (token: string, otp: string, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/verify', { token, mfaToken, body: { otp } });
const skip = (token: string) => api.call('POST', '/api/v1/mfa/skip', { token });

/** The code of the newest text to `phone`. */
async function lastCodeTo(phone: string): Promise<string> {
  const text = (await api.mailTo(phone)).at(-1);
  if (!text) throw new Error(`No text to ${phone}.`);
  return codeFromText(text.textBody);
}

/** Verifies the newest code texted to `phone` in this session; returns the mfa token. */
async function verifyLastCode(token: string, phone: string, mfaToken?: string): Promise<string> {
  const response = await verify(token, await lastCodeTo(phone), mfaToken);
  expect(response.status).toBe(200);
  return response.headers.get('mfa-token') ?? '';
}

/** Signs in a new member and enrolls a phone in that session; returns what a test needs. */
async function enrolledMember(options: TestUserOptions = {}) {
  const { account, token } = await signedIn(options);
  const phone = uniquePhone();
  expect((await enroll(token, phone.typed)).status).toBe(200);
  expect((await sendOtp(token)).status).toBe(200);
  const mfaToken = await verifyLastCode(token, phone.e164);
  return { account, token, phone, mfaToken };
}

describe('the MFA flags of sign-in', () => {
  it('offers enrollment to a member who never declined it', async () => {
    const { flags } = await signedIn();

    expect(flags).toEqual({ mfa_requires_verification: true, mfa_required: false });
  });

  it('does not offer it to a member who declined it 10 days ago', async () => {
    const { flags } = await signedIn({
      mfaDeclinedAt: new Date(api.clock.now().getTime() - 10 * DAY),
    });

    expect(flags).toEqual({ mfa_requires_verification: false, mfa_required: false });
  });

  it('offers it again once 30 days have passed since the member skipped it', async () => {
    const { account, token } = await signedIn();
    expect((await skip(token)).status).toBe(204);

    api.clock.advanceBy(10 * DAY);
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: false,
      mfa_required: false,
    });

    api.clock.advanceBy(20 * DAY);
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: false,
      mfa_required: false,
    });

    api.clock.advanceBy(DAY);
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: true,
      mfa_required: false,
    });
  });

  it('requires verification, and offers no enrollment, to an enrolled member', async () => {
    const { flags } = await signedIn({ mfaPhone: uniquePhone().e164 });

    expect(flags).toEqual({ mfa_requires_verification: false, mfa_required: true });
  });

  it('always offers enrollment when the company requires MFA, even after a refusal', async () => {
    const { flags } = await signedIn({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
      mfaDeclinedAt: new Date(api.clock.now().getTime() - DAY),
    });

    expect(flags).toEqual({ mfa_requires_verification: true, mfa_required: false });
  });
});

describe('GET /api/v1/mfa', () => {
  const status = (token: string, mfaToken?: string) =>
    api.call('GET', '/api/v1/mfa', { token, mfaToken });

  it('tells a member without a phone that there is nothing enrolled, and whether it must be', async () => {
    const free = await signedIn();
    const bound = await signedIn({ companyName: 'Northwind Secure', companyRequiresMfa: true });

    expect(await (await status(free.token)).json()).toEqual({
      enrolled: false,
      methods: [],
      verified: false,
      required: false,
      phone_last_digits: null,
      recovery_codes_left: 0,
      recently_proven: true,
    });
    expect(await (await status(bound.token)).json()).toEqual({
      enrolled: false,
      methods: [],
      verified: false,
      required: true,
      phone_last_digits: null,
      recovery_codes_left: 0,
      recently_proven: true,
    });
  });

  it('names the pending number while enrolling, and the enrolled one after', async () => {
    const { token } = await signedIn();
    const phone = uniquePhone();
    await enroll(token, phone.typed);

    expect(await (await status(token)).json()).toMatchObject({
      enrolled: false,
      phone_last_digits: phone.lastDigits,
    });

    await sendOtp(token);
    const mfaToken = await verifyLastCode(token, phone.e164);
    expect(await (await status(token, mfaToken)).json()).toEqual({
      enrolled: true,
      methods: ['sms'],
      verified: true,
      required: false,
      phone_last_digits: phone.lastDigits,
      recovery_codes_left: 0,
      recently_proven: true,
    });
    expect(await (await status(token)).json()).toMatchObject({ enrolled: true, verified: false });
  });
});

describe('enrolling a phone', () => {
  it('keeps the number, texts a code to it, and the verified code enrolls it and issues the mfa token', async () => {
    const { account, token } = await signedIn();
    const phone = uniquePhone();

    const enrolled = await enroll(token, phone.typed);
    expect(enrolled.status).toBe(200);
    expect(await enrolled.json()).toEqual({
      message: `We will text a code to the phone number ending ${phone.lastDigits}.`,
      phone_last_digits: phone.lastDigits,
    });
    expect(await reloadUser(api.db, account.user.id)).toMatchObject({
      pendingMfaPhone: phone.e164,
      mfaPhone: null,
    });

    const sent = await sendOtp(token);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({
      message: `We have sent a code to the phone number ending ${phone.lastDigits}.`,
      phone_last_digits: phone.lastDigits,
      resend_after_seconds: 60,
    });
    const [text] = await api.mailTo(phone.e164);
    expect(text?.channel).toBe('sms');
    expect(text?.textBody).toMatch(
      /^Your Member Concierge code is \d{6}\. It expires in 10 minutes\.$/,
    );

    const verified = await verify(token, codeFromText(text?.textBody ?? ''));
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ success: true });
    const mfaToken = verified.headers.get('mfa-token') ?? '';
    expect(mfaToken).toMatch(TOKEN);
    expect(await reloadUser(api.db, account.user.id)).toMatchObject({
      mfaPhone: phone.e164,
      pendingMfaPhone: null,
    });

    const current = await api.getCurrentUser(token, mfaToken);
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({
      mfa_enrolled: true,
      phone_last_digits: phone.lastDigits,
    });
    const withoutMfaToken = await api.getCurrentUser(token);
    expect(withoutMfaToken.status).toBe(401);
    expect(await withoutMfaToken.json()).toEqual(MFA_REQUIRED);
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: false,
      mfa_required: true,
    });
  });

  it.each(['+1 555 010 4567', '5550104567', '555-010-4567', '555.010.4567', '1 (555) 010-4567'])(
    'normalises %s to E.164',
    async (typed) => {
      const { account, token } = await signedIn();

      expect((await enroll(token, typed)).status).toBe(200);

      expect((await reloadUser(api.db, account.user.id)).pendingMfaPhone).toBe('+15550104567');
    },
  );

  it.each(['12345', '555012345', '+44 20 7946 0958', '(055) 123-4567', '555-CALL-NOW', ''])(
    'refuses %j, naming mfa_number',
    async (typed) => {
      const { account, token } = await signedIn();

      const response = await enroll(token, typed);

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ error: INVALID_NUMBER, field: 'mfa_number' });
      expect((await reloadUser(api.db, account.user.id)).pendingMfaPhone).toBeNull();
    },
  );

  it('answers 400 naming mfa_number when it is missing', async () => {
    const { token } = await signedIn();

    const response = await api.call('POST', '/api/v1/mfa', { token, body: {} });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'mfa_number is required.',
      field: 'mfa_number',
    });
  });

  it('stores the code only salted and hashed', async () => {
    const { account, token } = await signedIn();
    const phone = uniquePhone();
    await enroll(token, phone.typed);
    await sendOtp(token);
    const code = await lastCodeTo(phone.e164);

    const [stored] = await api.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, account.user.id));

    expect(stored?.codeHash).toMatch(/^[A-Za-z0-9_-]{22}\$[0-9a-f]{64}$/);
    expect(stored?.codeHash).not.toContain(code);
    expect(stored).toMatchObject({ purpose: 'enroll', phone: phone.e164 });
  });

  it('answers 422 to send-otp while there is no phone to text', async () => {
    const { token } = await signedIn();

    const response = await sendOtp(token);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Enter your phone number first, then ask for a code.',
    });
  });

  it('does not enroll with a code sent for an earlier number', async () => {
    const { account, token } = await signedIn();
    const first = uniquePhone();
    const second = uniquePhone();
    await enroll(token, first.typed);
    await sendOtp(token);
    const firstCode = await lastCodeTo(first.e164);

    await enroll(token, second.typed);

    expect((await verify(token, firstCode)).status).toBe(422);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBeNull();
  });

  it('keeps a code good when the same number is given again', async () => {
    const { account, token } = await signedIn();
    const phone = uniquePhone();
    await enroll(token, phone.typed);
    await sendOtp(token);

    expect((await enroll(token, phone.e164)).status).toBe(200);

    await verifyLastCode(token, phone.e164);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(phone.e164);
  });

  it('answers 401 to the MFA routes without a session', async () => {
    for (const path of [
      '/api/v1/mfa',
      '/api/v1/mfa/send-otp',
      '/api/v1/mfa/verify',
      '/api/v1/mfa/skip',
    ]) {
      const response = await api.call('POST', path, {
        body: { mfa_number: '5550104567', otp: '123456' },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'Your session has expired. Please sign in again.',
      });
    }
  });
});

describe('verifying a session of an enrolled member', () => {
  it('refuses every other call until the code texted to the enrolled phone is verified', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });

    const before = await api.getCurrentUser(token);
    expect(before.status).toBe(401);
    expect(await before.json()).toEqual(MFA_REQUIRED);

    expect(await (await sendOtp(token)).json()).toMatchObject({
      phone_last_digits: phone.lastDigits,
    });
    const mfaToken = await verifyLastCode(token, phone.e164);

    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
  });

  it('refuses a wrong code, and an mfa token that is not this session’s', async () => {
    const phone = uniquePhone();
    const { account, token } = await signedIn({ mfaPhone: phone.e164 });
    const other = await api.signInToken(account);
    await sendOtp(token);
    const code = await lastCodeTo(phone.e164);

    const wrong = await verify(token, otherCode(code));
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual(UNABLE_TO_VERIFY);
    expect(wrong.headers.get('mfa-token')).toBeNull();

    const mfaToken = await verifyLastCode(token, phone.e164);
    const elsewhere = await api.getCurrentUser(other, mfaToken);
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.json()).toEqual(MFA_REQUIRED);
    const tampered = `${mfaToken.slice(0, -1)}${mfaToken.endsWith('A') ? 'B' : 'A'}`;
    expect((await api.getCurrentUser(token, tampered)).status).toBe(401);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
  });

  it('refuses a code that was sent for another session', async () => {
    const phone = uniquePhone();
    const { account, token } = await signedIn({ mfaPhone: phone.e164 });
    const other = await api.signInToken(account);
    await sendOtp(token);
    const code = await lastCodeTo(phone.e164);

    const response = await verify(other, code);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(UNABLE_TO_VERIFY);
    expect((await verify(token, code)).status).toBe(200);
  });

  it('voids a code after 5 wrong tries: even the right one is refused until a new one is sent', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    await sendOtp(token);
    const code = await lastCodeTo(phone.e164);

    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await verify(token, otherCode(code))).status).toBe(422);
    }
    expect(await (await verify(token, code)).json()).toEqual(UNABLE_TO_VERIFY);

    api.clock.advanceBy(MINUTE);
    expect((await sendOtp(token)).status).toBe(200);
    expect(await verifyLastCode(token, phone.e164)).toMatch(TOKEN);
  });

  it('does not count a reply that is not a code as a wrong try', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    await sendOtp(token);

    for (const typo of ['12345', '1234567', 'abcdef', '', '12345', '12345']) {
      expect((await verify(token, typo)).status).toBe(422);
    }

    const code = await lastCodeTo(phone.e164);
    expect((await verify(token, `${code.slice(0, 3)} ${code.slice(3)}`)).status).toBe(200);
  });

  it('accepts a code for 10 minutes and refuses it from then on', async () => {
    const early = uniquePhone();
    const late = uniquePhone();
    const first = await signedIn({ mfaPhone: early.e164 });
    const second = await signedIn({ mfaPhone: late.e164 });
    await sendOtp(first.token);
    await sendOtp(second.token);

    api.clock.advanceBy(10 * MINUTE - SECOND);
    expect((await verify(first.token, await lastCodeTo(early.e164))).status).toBe(200);

    api.clock.advanceBy(SECOND);
    const expired = await verify(second.token, await lastCodeTo(late.e164));
    expect(expired.status).toBe(422);
    expect(await expired.json()).toEqual(UNABLE_TO_VERIFY);
  });

  it('accepts a code once', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    await sendOtp(token);
    const code = await lastCodeTo(phone.e164);

    expect((await verify(token, code)).status).toBe(200);
    expect((await verify(token, code)).status).toBe(422);
  });

  it('accepts only the newest code of a session', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    await sendOtp(token);
    const older = await lastCodeTo(phone.e164);
    api.clock.advanceBy(MINUTE);
    await sendOtp(token);
    const newer = await lastCodeTo(phone.e164);

    if (older !== newer) expect((await verify(token, older)).status).toBe(422);
    expect((await verify(token, newer)).status).toBe(200);
  });

  it('answers 429 with Retry-After after 10 checks in 10 minutes', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    await sendOtp(token);

    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await verify(token, '000000')).status).toBeLessThan(429);
    }
    const refused = await verify(token, await lastCodeTo(phone.e164));

    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'Too many attempts. Please wait a few minutes and try again.',
    });
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('sends the code to the enrolled phone, not to a number set before verification', async () => {
    const enrolled = uniquePhone();
    const intruder = uniquePhone();
    const { account, token } = await signedIn({ mfaPhone: enrolled.e164 });
    await api.db
      .update(users)
      .set({ pendingMfaPhone: intruder.e164 })
      .where(eq(users.id, account.user.id));

    expect(await (await sendOtp(token)).json()).toMatchObject({
      phone_last_digits: enrolled.lastDigits,
    });

    expect(await api.mailTo(intruder.e164)).toHaveLength(0);
    await verifyLastCode(token, enrolled.e164);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(enrolled.e164);
  });

  it('lets only a verified session change the enrolled number', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember();
    const other = await api.signInToken(account);
    const newPhone = uniquePhone();

    const unverified = await enroll(other, newPhone.typed);
    expect(unverified.status).toBe(401);
    expect(await unverified.json()).toEqual(MFA_REQUIRED);

    api.clock.advanceBy(MINUTE);
    expect((await enroll(token, newPhone.typed, mfaToken)).status).toBe(200);
    expect(await (await sendOtp(token, mfaToken)).json()).toMatchObject({
      phone_last_digits: newPhone.lastDigits,
    });
    await verifyLastCode(token, newPhone.e164, mfaToken);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(newPhone.e164);
    expect(phone.e164).not.toBe(newPhone.e164);
  });
});

/** The kinds of the member's security events, oldest first. */
async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id));
  return rows.map((row) => row.kind).reverse();
}

async function subjectsTo(email: string): Promise<string[]> {
  return (await api.mailTo(email)).map((message) => message.subject ?? '');
}

describe('emails and events of two-step changes', () => {
  it('emails the member when a phone is first confirmed, naming only its last two digits', async () => {
    const { account, phone } = await enrolledMember();

    const mail = await api.mailTo(account.email);
    expect(mail.map((message) => message.subject)).toEqual([
      'Two-step verification is on for your Member Concierge account',
    ]);
    expect(mail[0]?.textBody).toContain(`the phone number ending ${phone.lastDigits}.`);
    expect(mail[0]?.textBody).not.toContain(phone.e164.slice(2, 8));
    expect(await eventKinds(account.user.id)).toEqual(['signed_in', 'two_step_enabled']);
  });

  it('emails the member when another phone replaces the enrolled one, and records the change', async () => {
    const { account, token, mfaToken } = await enrolledMember();
    const newPhone = uniquePhone();
    api.clock.advanceBy(MINUTE);

    expect((await enroll(token, newPhone.typed, mfaToken)).status).toBe(200);
    expect((await sendOtp(token, mfaToken)).status).toBe(200);
    await verifyLastCode(token, newPhone.e164, mfaToken);

    expect(await subjectsTo(account.email)).toEqual([
      'Two-step verification is on for your Member Concierge account',
      'Your Member Concierge sign-in codes go to a new phone',
    ]);
    expect((await api.mailTo(account.email)).at(-1)?.textBody).toContain(
      `now go to the phone number ending ${newPhone.lastDigits};`,
    );
    expect(await eventKinds(account.user.id)).toEqual([
      'signed_in',
      'two_step_enabled',
      'two_step_phone_changed',
    ]);
  });

  it('neither emails nor records anything when the enrolled number is confirmed again', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember();
    api.clock.advanceBy(MINUTE);

    expect((await enroll(token, phone.typed, mfaToken)).status).toBe(200);
    expect((await sendOtp(token, mfaToken)).status).toBe(200);
    await verifyLastCode(token, phone.e164, mfaToken);

    expect(await subjectsTo(account.email)).toHaveLength(1);
    expect(await eventKinds(account.user.id)).toEqual(['signed_in', 'two_step_enabled']);
    expect(await reloadUser(api.db, account.user.id)).toMatchObject({
      mfaPhone: phone.e164,
      pendingMfaPhone: null,
    });
  });
});

const turnOff = (token: string, mfaToken: string | undefined, currentPassword: unknown) =>
  api.call('DELETE', '/api/v1/mfa', {
    token,
    mfaToken,
    body: { user: { current_password: currentPassword } },
  });

describe('DELETE /api/v1/mfa (turning two-step verification off)', () => {
  it('forgets the phone and its codes, emails the member, records it, and signs in with the password alone', async () => {
    const { account, token, mfaToken } = await enrolledMember();

    const response = await turnOff(token, mfaToken, account.password);

    expect(response.status).toBe(204);
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({ mfaPhone: null, pendingMfaPhone: null });
    expect(user.mfaDeclinedAt).toEqual(api.clock.now());
    const codes = await api.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, account.user.id));
    expect(codes).toEqual([]);
    expect((await subjectsTo(account.email)).at(-1)).toBe(
      'Two-step verification was turned off for your Member Concierge account',
    );
    expect((await eventKinds(account.user.id)).at(-1)).toBe('two_step_disabled');
    // Declined just now: the offer is not due at the next sign-in, and no code is asked.
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: false,
      mfa_required: false,
    });
    expect((await api.getCurrentUser(token)).status).toBe(200);
  });

  it('refuses a wrong current password under the field, changes nothing, and counts it toward the lockout', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember();

    const response = await turnOff(token, mfaToken, 'not the password');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Your current password is not right.',
      field: 'user.current_password',
    });
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({ mfaPhone: phone.e164, failedAttempts: 1 });
    expect(await subjectsTo(account.email)).toHaveLength(1);
  });

  it('locks the account at the tenth wrong password in a row, emails the unlock link, and ends the session', async () => {
    const { account, token, mfaToken } = await enrolledMember();
    await api.db.update(users).set({ failedAttempts: 9 }).where(eq(users.id, account.user.id));

    expect((await turnOff(token, mfaToken, 'not the password')).status).toBe(422);

    const user = await reloadUser(api.db, account.user.id);
    expect(user.lockedAt).not.toBeNull();
    expect(user.mfaPhone).not.toBeNull();
    expect((await eventKinds(account.user.id)).at(-1)).toBe('locked');
    expect((await subjectsTo(account.email)).at(-1)).toMatch(/locked/i);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(401);
  });

  it('answers 403 where the company requires two-step verification, keeping the phone', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember({
      companyName: 'Acme Health',
      companyRequiresMfa: true,
    });

    const response = await turnOff(token, mfaToken, account.password);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'Your company requires two-step verification.',
    });
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(phone.e164);
  });

  it('answers 422 when two-step verification is already off, sending nothing', async () => {
    const { account, token } = await signedIn({ mfaDeclinedAt: new Date() });

    const response = await turnOff(token, undefined, account.password);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'Two-step verification is already off.' });
    expect(await api.mailTo(account.email)).toEqual([]);
  });

  it('takes a session past its MFA step: a password alone cannot remove the phone', async () => {
    const { account, phone } = await enrolledMember();
    const unverified = await api.signInToken(account);

    const response = await turnOff(unverified, undefined, account.password);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(phone.e164);
  });

  it.each([
    ['no password', undefined],
    ['an empty password', ''],
    ['a password of 1025 characters', 'x'.repeat(1025)],
    ['a number', 12345678],
  ])('answers 400 to %s, naming the field', async (_case, currentPassword) => {
    const { account, token, phone, mfaToken } = await enrolledMember();

    const response =
      currentPassword === undefined
        ? await api.call('DELETE', '/api/v1/mfa', { token, mfaToken, body: { user: {} } })
        : await turnOff(token, mfaToken, currentPassword);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: 'user.current_password' });
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(phone.e164);
  });

  it('answers 429 after 10 tries in an hour by one member', async () => {
    const { account, token, mfaToken } = await enrolledMember();
    expect((await turnOff(token, mfaToken, account.password)).status).toBe(204);
    for (let attempt = 1; attempt < 10; attempt += 1) {
      expect((await turnOff(token, mfaToken, account.password)).status).toBe(422);
    }

    const response = await turnOff(token, mfaToken, account.password);

    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});

/** A second sign-in of an enrolled member, past its step with the enrolled phone. */
async function secondVerifiedSession(account: { email: string; password: string }, phone: string) {
  const token = await api.signInToken(account);
  expect((await sendOtp(token)).status).toBe(200);
  const mfaToken = await verifyLastCode(token, phone);
  return { token, mfaToken };
}

describe('two sessions changing the phone at once', { tags: ['database'] }, () => {
  it('confirms only the number given last: the code texted for an earlier one, from any session, is void', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember();
    const other = await secondVerifiedSession(account, phone.e164);
    const first = uniquePhone();
    const second = uniquePhone();
    api.clock.advanceBy(MINUTE);
    expect((await enroll(token, first.typed, mfaToken)).status).toBe(200);
    expect((await sendOtp(token, mfaToken)).status).toBe(200);
    const firstCode = await lastCodeTo(first.e164);
    api.clock.advanceBy(MINUTE);
    expect((await enroll(other.token, second.typed, other.mfaToken)).status).toBe(200);
    expect((await sendOtp(other.token, other.mfaToken)).status).toBe(200);

    expect((await verify(token, firstCode, mfaToken)).status).toBe(422);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(phone.e164);

    await verifyLastCode(other.token, second.e164, other.mfaToken);
    expect(await reloadUser(api.db, account.user.id)).toMatchObject({
      mfaPhone: second.e164,
      pendingMfaPhone: null,
    });
    expect(await eventKinds(account.user.id)).toEqual([
      'signed_in',
      'two_step_enabled',
      'signed_in',
      'two_step_phone_changed',
    ]);
  });

  it('spends a code sent to a new number once, though it is sent twice at the same moment: one change, one email', async () => {
    const { account, token, mfaToken } = await enrolledMember();
    const newPhone = uniquePhone();
    api.clock.advanceBy(MINUTE);
    expect((await enroll(token, newPhone.typed, mfaToken)).status).toBe(200);
    expect((await sendOtp(token, mfaToken)).status).toBe(200);
    const code = await lastCodeTo(newPhone.e164);

    const answers = await Promise.all([
      verify(token, code, mfaToken),
      verify(token, code, mfaToken),
    ]);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect((await reloadUser(api.db, account.user.id)).mfaPhone).toBe(newPhone.e164);
    expect(await subjectsTo(account.email)).toEqual([
      'Two-step verification is on for your Member Concierge account',
      'Your Member Concierge sign-in codes go to a new phone',
    ]);
    expect(await eventKinds(account.user.id)).toEqual([
      'signed_in',
      'two_step_enabled',
      'two_step_phone_changed',
    ]);
  });

  it('leaves no phone behind when one session turns the step off while another confirms a new number', async () => {
    const { account, token, phone, mfaToken } = await enrolledMember();
    const other = await secondVerifiedSession(account, phone.e164);
    const newPhone = uniquePhone();
    api.clock.advanceBy(MINUTE);
    expect((await enroll(other.token, newPhone.typed, other.mfaToken)).status).toBe(200);
    expect((await sendOtp(other.token, other.mfaToken)).status).toBe(200);
    const code = await lastCodeTo(newPhone.e164);

    const [turnedOff, confirmed] = await Promise.all([
      turnOff(token, mfaToken, account.password),
      verify(other.token, code, other.mfaToken),
    ]);

    // Whichever came first, the turning off is last in effect: it was asked with the password,
    // and a code can only confirm a number while the step is on.
    expect(turnedOff.status).toBe(204);
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({ mfaPhone: null, pendingMfaPhone: null });
    const codes = await api.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, account.user.id));
    expect(codes).toEqual([]);
    const kinds = await eventKinds(account.user.id);
    expect(kinds.at(-1)).toBe('two_step_disabled');
    expect(kinds.includes('two_step_phone_changed')).toBe(confirmed.status === 200);
  });
});

describe('resending codes', () => {
  it('sends at most one code a minute', async () => {
    const phone = uniquePhone();
    const { token } = await signedIn({ mfaPhone: phone.e164 });
    expect((await sendOtp(token)).status).toBe(200);

    const tooSoon = await sendOtp(token);
    expect(tooSoon.status).toBe(429);
    expect(await tooSoon.json()).toEqual({
      error: 'We have just sent you a code. Please wait a minute before asking for another.',
    });
    expect(tooSoon.headers.get('Retry-After')).toBe('60');

    api.clock.advanceBy(40 * SECOND);
    expect((await sendOtp(token)).headers.get('Retry-After')).toBe('20');

    api.clock.advanceBy(20 * SECOND);
    expect((await sendOtp(token)).status).toBe(200);
    expect(await api.mailTo(phone.e164)).toHaveLength(2);
  });

  it('sends the first code of a new sign-in at once, though the last code was used a moment ago', async () => {
    const phone = uniquePhone();
    const { account, token } = await signedIn({ mfaPhone: phone.e164 });
    expect((await sendOtp(token)).status).toBe(200);
    await verifyLastCode(token, phone.e164);

    api.clock.advanceBy(10 * SECOND);
    const nextSignIn = await api.signInToken(account);
    expect((await sendOtp(nextSignIn)).status).toBe(200);
    expect(await api.mailTo(phone.e164)).toHaveLength(2);
    // While that code waits to be entered, a resend still waits its minute.
    expect((await sendOtp(nextSignIn)).status).toBe(429);
  });

  it('sends at most 5 codes an hour to a member, whichever session asks', async () => {
    const phone = uniquePhone();
    const { account, token } = await signedIn({ mfaPhone: phone.e164 });
    for (let sent = 1; sent <= 5; sent += 1) {
      expect((await sendOtp(token)).status).toBe(200);
      api.clock.advanceBy(MINUTE);
    }

    const sixth = await sendOtp(token);
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toEqual({
      error: 'You have asked for too many codes. Please wait a while and try again.',
    });
    expect(sixth.headers.get('Retry-After')).toBe(String(55 * 60));
    const otherSession = await api.signInToken(account);
    expect((await sendOtp(otherSession)).status).toBe(429);

    api.clock.advanceBy(55 * MINUTE);
    const later = await api.signInToken(account);
    expect((await sendOtp(later)).status).toBe(200);
    expect(await api.mailTo(phone.e164)).toHaveLength(6);
  });
});

describe('skipping enrollment', () => {
  it('answers 204 and records the refusal, after which the offer is not due', async () => {
    const { account, token } = await signedIn();

    const response = await skip(token);

    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await reloadUser(api.db, account.user.id)).mfaDeclinedAt).toEqual(api.clock.now());
    expect(await signInFlags(account)).toEqual({
      mfa_requires_verification: false,
      mfa_required: false,
    });
    expect((await api.getCurrentUser(token)).status).toBe(200);
  });

  it('answers 403 when the company requires MFA', async () => {
    const { account, token } = await signedIn({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
    });

    const response = await skip(token);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'Your company requires two-step verification.',
    });
    expect((await reloadUser(api.db, account.user.id)).mfaDeclinedAt).toBeNull();
  });
});

describe('a company that requires MFA', () => {
  const requiring = { companyName: 'Northwind Secure', companyRequiresMfa: true };

  it('refuses its unenrolled member every call but the MFA ones and sign-out', async () => {
    const { token } = await signedIn(requiring);

    const current = await api.getCurrentUser(token);
    expect(current.status).toBe(401);
    expect(await current.json()).toEqual(MFA_REQUIRED);
    const profile = await api.call('PATCH', '/api/v1/users/current', {
      token,
      body: { user: { help_topics: ['travel'] } },
    });
    expect(profile.status).toBe(401);
    expect(await profile.json()).toEqual(MFA_REQUIRED);

    expect((await api.signOut(token)).status).toBe(204);
  });

  it('lets its member in once enrolled, with the mfa token of that session', async () => {
    const { token, mfaToken } = await enrolledMember(requiring);

    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    expect((await api.getCurrentUser(token)).status).toBe(401);
  });
});
