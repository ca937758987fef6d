import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents } from '../../api/db/schema/index.ts';
import { HOUR, MINUTE, SECOND } from '../../platform/clock.ts';
import { ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT } from '../../api/services/factors/one-time-codes.ts';
import {
  completeMfa,
  lastCodeTo,
  memberWithPhone,
  MFA_REQUIRED,
  otherCode,
  sendOtp,
  UNABLE_TO_VERIFY,
  verifyOtp,
} from './attacks-support.ts';
import { startTestApi, tokenFromLink, type TestApi } from './support.ts';

/**
 * The codes texted for MFA (docs/PRODUCT.md §11.2, §12): single use, bound to the session they
 * were sent for, valid 10 minutes, void after 5 wrong tries; 20 wrong codes across an account's
 * codes pause them all until a password reset or an unlock link.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

describe('a one-time code', () => {
  it('cannot be used twice, not even by the session that used it', async () => {
    const { phone, token } = await memberWithPhone(api);
    await completeMfa(api, token, phone);
    const code = await lastCodeTo(api, phone);

    const replay = await verifyOtp(api, token, code);

    expect(replay.status).toBe(422);
    expect(await replay.json()).toEqual(UNABLE_TO_VERIFY);
    expect(replay.headers.get('mfa-token')).toBeNull();
  });

  it('cannot be used by another session of the same member, before or after its own', async () => {
    const { account, phone, token: owner } = await memberWithPhone(api);
    const thief = await api.signInToken(account);
    expect((await sendOtp(api, owner)).status).toBe(200);
    const code = await lastCodeTo(api, phone);

    const stolen = await verifyOtp(api, thief, code);

    expect(stolen.status).toBe(422);
    expect(stolen.headers.get('mfa-token')).toBeNull();
    expect((await verifyOtp(api, owner, code)).status).toBe(200);
    expect((await verifyOtp(api, thief, code)).status).toBe(422);
    expect(await (await api.getCurrentUser(thief)).json()).toEqual(MFA_REQUIRED);
  });

  it("cannot be used by another member's session", async () => {
    const victim = await memberWithPhone(api);
    const attacker = await memberWithPhone(api);
    expect((await sendOtp(api, victim.token)).status).toBe(200);
    // The attacker's own session has a code too, so a code of any session would be compared.
    expect((await sendOtp(api, attacker.token)).status).toBe(200);

    const response = await verifyOtp(api, attacker.token, await lastCodeTo(api, victim.phone));

    expect(response.status).toBe(422);
    expect(response.headers.get('mfa-token')).toBeNull();
  });

  it('is refused from 10 minutes after it was sent', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const code = await lastCodeTo(api, phone);
    // Used now and then so that the session itself stays alive (idle timeout 30 minutes).
    api.clock.advanceBy(5 * MINUTE);
    expect((await api.call('GET', '/api/v1/mfa', { token })).status).toBe(200);
    api.clock.advanceBy(5 * MINUTE);

    const response = await verifyOtp(api, token, code);

    expect(response.status).toBe(422);
    expect(response.headers.get('mfa-token')).toBeNull();
  });

  it('is accepted up to just before its 10 minutes end', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    api.clock.advanceBy(10 * MINUTE - SECOND);

    expect((await verifyOtp(api, token, await lastCodeTo(api, phone))).status).toBe(200);
  });

  it('is void after 5 wrong tries: the right code is refused, and guessing goes no further', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const code = await lastCodeTo(api, phone);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await verifyOtp(api, token, otherCode(code))).status).toBe(422);
    }

    const response = await verifyOtp(api, token, code);

    expect(response.status).toBe(422);
    expect(response.headers.get('mfa-token')).toBeNull();
    expect(await (await api.getCurrentUser(token)).json()).toEqual(MFA_REQUIRED);
  });

  it('still works after 4 wrong tries', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const code = await lastCodeTo(api, phone);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await verifyOtp(api, token, otherCode(code));
    }

    expect((await verifyOtp(api, token, code)).status).toBe(200);
  });

  it('counts wrong tries sent at the same moment exactly', { tags: ['database'] }, async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const code = await lastCodeTo(api, phone);

    await Promise.all(Array.from({ length: 5 }, () => verifyOtp(api, token, otherCode(code))));

    expect((await verifyOtp(api, token, code)).status).toBe(422);
  });

  it('is voided by a newer code for the same session', async () => {
    const { phone, token } = await memberWithPhone(api);
    expect((await sendOtp(api, token)).status).toBe(200);
    const older = await lastCodeTo(api, phone);
    api.clock.advanceBy(MINUTE);
    expect((await sendOtp(api, token)).status).toBe(200);
    const newer = await lastCodeTo(api, phone);
    // One time in a million the new code has the same digits, and there is nothing to tell apart.
    if (older === newer) return;

    expect((await verifyOtp(api, token, older)).status).toBe(422);
    expect((await verifyOtp(api, token, newer)).status).toBe(200);
  });
});

const CODES_PAUSED = {
  error:
    'Too many wrong codes were entered. Codes are paused for your account until you reset your password or use the unlock link we have emailed you.',
};
const CODES_PAUSED_SUBJECT = 'Sign-in codes for your Member Concierge account are paused';
const NEW_PASSWORD = 'a brand new passphrase for codes';

/**
 * For each number of misses, texts the session a code and enters that many wrong ones (at most
 * 4, so that the code itself stays good), 10 minutes apart: the limits on checks (10 in 10
 * minutes) and on codes (one a minute, 5 an hour) allow no more. Answers the last code and what
 * each wrong one was answered.
 */
async function missCodes(token: string, phone: string, misses: readonly number[]) {
  let code = '';
  const answers: { status: number; body: unknown }[] = [];
  for (const [index, count] of misses.entries()) {
    if (index > 0) api.clock.advanceBy(10 * MINUTE);
    expect((await sendOtp(api, token)).status).toBe(200);
    code = await lastCodeTo(api, phone);
    for (let miss = 0; miss < count; miss += 1) {
      const response = await verifyOtp(api, token, otherCode(code));
      answers.push({ status: response.status, body: await response.json() });
    }
  }
  return { code, answers };
}

const refusedAsWrong = (count: number) =>
  Array.from({ length: count }, () => ({ status: 422, body: UNABLE_TO_VERIFY }));

describe('the wrong codes of an account', () => {
  it('pause its codes at the 20th, across codes and sessions: the right code and new codes are refused, and the member is emailed once', async () => {
    expect(ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT).toBe(20);
    const { account, phone, token } = await memberWithPhone(api);
    const first = await missCodes(token, phone, [4, 4]);
    api.clock.advanceBy(10 * MINUTE);
    const other = await api.signInToken(account);
    const second = await missCodes(other, phone, [4, 4, 4]);

    expect([...first.answers, ...second.answers]).toEqual([
      ...refusedAsWrong(19),
      { status: 403, body: CODES_PAUSED },
    ]);
    const rightCode = await verifyOtp(api, other, second.code);
    expect(rightCode.status).toBe(403);
    expect(await rightCode.json()).toEqual(CODES_PAUSED);
    expect(rightCode.headers.get('mfa-token')).toBeNull();
    expect(await (await api.getCurrentUser(other)).json()).toEqual(MFA_REQUIRED);

    const texts = (await api.mailTo(phone)).length;
    api.clock.advanceBy(MINUTE);
    const sameSession = await sendOtp(api, other);
    // No wait lifts the pause, not even past every limit on codes, nor a new sign-in.
    api.clock.advanceBy(2 * HOUR);
    const newSession = await sendOtp(api, await api.signInToken(account));
    for (const request of [sameSession, newSession]) {
      expect(request.status).toBe(403);
      expect(request.headers.get('Retry-After')).toBeNull();
      expect(await request.json()).toEqual(CODES_PAUSED);
    }
    expect(await api.mailTo(phone)).toHaveLength(texts);
    const emails = await api.mailTo(account.email);
    expect(emails.map((email) => email.subject)).toEqual([CODES_PAUSED_SUBJECT]);
    // The Activity page says so once, however many refused tries came after.
    const paused = await api.db
      .select()
      .from(securityEvents)
      .where(
        and(
          eq(securityEvents.userId, account.user.id),
          eq(securityEvents.kind, 'two_step_codes_paused'),
        ),
      );
    expect(paused).toHaveLength(1);
  });

  it('are forgotten, and codes resume, once the member resets the password', async () => {
    const { account, phone, token } = await memberWithPhone(api);
    const { answers } = await missCodes(token, phone, [4, 4, 4, 4, 4]);
    expect(answers.at(-1)).toEqual({ status: 403, body: CODES_PAUSED });

    expect((await api.requestPasswordReset(account.email)).status).toBe(200);
    const resetEmail = (await api.mailTo(account.email)).at(-1);
    const reset = await api.resetPassword({
      reset_password_token: tokenFromLink(resetEmail?.textBody ?? '', 'reset-password'),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);

    const session = await api.signInToken({ email: account.email, password: NEW_PASSWORD });
    const after = await missCodes(session, phone, [4]);
    expect(after.answers).toEqual(refusedAsWrong(4));
    expect((await verifyOtp(api, session, after.code)).status).toBe(200);
  });

  it('are forgotten, and codes resume, with the unlock link of the email or a new one', async () => {
    const { account, phone, token } = await memberWithPhone(api);
    await missCodes(token, phone, [4, 4, 4, 4, 4]);
    const [notice] = await api.mailTo(account.email);
    expect(notice?.subject).toBe(CODES_PAUSED_SUBJECT);
    expect(notice?.textBody).toContain('Too many wrong codes were entered');

    // A new link, asked for as on the page of an expired one, is the same notice.
    expect((await api.requestUnlock(account.email)).status).toBe(200);
    const renewed = (await api.mailTo(account.email)).at(-1);
    expect(renewed?.id).not.toBe(notice?.id);
    expect(renewed?.subject).toBe(CODES_PAUSED_SUBJECT);
    expect((await api.unlock(tokenFromLink(notice?.textBody ?? '', 'unlock'))).status).toBe(422);
    expect((await api.unlock(tokenFromLink(renewed?.textBody ?? '', 'unlock'))).status).toBe(200);

    const session = await api.signInToken(account);
    const after = await missCodes(session, phone, [4]);
    expect(after.answers).toEqual(refusedAsWrong(4));
    expect((await verifyOtp(api, session, after.code)).status).toBe(200);
  });

  it('are counted per account: 19 wrong codes each for two members pause neither', async () => {
    for (let member = 0; member < 2; member += 1) {
      const { phone, token } = await memberWithPhone(api);
      const { code, answers } = await missCodes(token, phone, [4, 4, 4, 4, 3]);

      expect(answers).toEqual(refusedAsWrong(19));
      expect((await verifyOtp(api, token, code)).status).toBe(200);
      api.clock.advanceBy(10 * MINUTE);
    }
  });

  it('count for 24 hours from when their code was sent, and not a second longer', async () => {
    const early = await memberWithPhone(api);
    const earlyStart = api.clock.now().getTime();
    await missCodes(early.token, early.phone, [4, 4, 4, 4, 3]);
    api.clock.advanceBy(10 * MINUTE);
    const late = await memberWithPhone(api);
    const lateStart = api.clock.now().getTime();
    await missCodes(late.token, late.phone, [4, 4, 4, 4, 3]);

    // One second before the first code's 24 hours end, its 4 wrong tries still count.
    api.clock.set(new Date(earlyStart + 24 * HOUR - SECOND));
    const earlySession = await api.signInToken(early.account);
    const stillCounted = await missCodes(earlySession, early.phone, [1]);
    expect(stillCounted.answers).toEqual([{ status: 403, body: CODES_PAUSED }]);

    // At the end of them, they no longer do: 15 + 4 more stay below 20.
    api.clock.set(new Date(lateStart + 24 * HOUR));
    const lateSession = await api.signInToken(late.account);
    const rolledOff = await missCodes(lateSession, late.phone, [4]);
    expect(rolledOff.answers).toEqual(refusedAsWrong(4));
    expect((await verifyOtp(api, lateSession, rolledOff.code)).status).toBe(200);
  });
});
