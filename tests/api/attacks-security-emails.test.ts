import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../api/db/schema/index.ts';
import { MINUTE } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { lastCodeTo, otherCode, sendOtp, uniquePhone, verifyOtp } from './attacks-support.ts';
import {
  startTestApi,
  TEST_PASSWORD,
  tokenFromLink,
  uniqueEmail,
  type TestApi,
} from './support.ts';

/**
 * The emails about an account's security carry no text a member wrote: in a genuine email from
 * the product, a first name that reads as a sentence would pass for the product's own words.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const HOSTILE_NAME =
  'there. Your account was suspended - restore it at https://evil.example/restore';
/** Pieces of the name that would give it away, however an email cut or escaped it. */
const GIVEAWAYS = ['there.', 'suspended', 'evil.example', 'restore it', 'https://evil'];
const NEW_PASSWORD = 'a brand new passphrase for emails';

/** The newest email to `email` with a link of `path`: its token. */
async function latestToken(email: string, path: 'reset-password' | 'unlock'): Promise<string> {
  const withLink = (await api.mailTo(email)).filter((message) =>
    message.textBody.includes(`/${path}/`),
  );
  return tokenFromLink(withLink.at(-1)?.textBody ?? '', path);
}

describe('the security emails', () => {
  it('put nothing of a first name that reads as a sentence in the reset, lockout, unlock, codes-paused and password-changed emails (after a reset and after a change), and greet with "Hello,"', async () => {
    const email = uniqueEmail();
    const account = { email, password: TEST_PASSWORD };
    const signUp = await api.signUp({
      email,
      password: TEST_PASSWORD,
      name: HOSTILE_NAME,
      last_name: 'Jordan',
      terms_of_service: 1,
    });
    expect(signUp.status).toBe(201);

    expect((await api.requestPasswordReset(email)).status).toBe(200);
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email, password: 'a wrong password' });
    }
    expect((await api.requestUnlock(email)).status).toBe(200);
    expect((await api.unlock(await latestToken(email, 'unlock'))).status).toBe(200);

    // 20 wrong codes, 4 to a code, pause the account's codes; asking for a link then mails the
    // same notice again.
    const phone = uniquePhone();
    await api.db.update(users).set({ mfaPhone: phone.e164 }).where(eq(users.email, email));
    const token = await api.signInToken(account);
    for (let code = 0; code < 5; code += 1) {
      api.clock.advanceBy(10 * MINUTE);
      expect((await sendOtp(api, token)).status).toBe(200);
      const right = await lastCodeTo(api, phone.e164);
      for (let miss = 0; miss < 4; miss += 1) await verifyOtp(api, token, otherCode(right));
    }
    expect((await api.requestUnlock(email)).status).toBe(200);

    const reset = await api.resetPassword({
      reset_password_token: await latestToken(email, 'reset-password'),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
    // The change made while signed in has an email of its own (without the phone, no code step).
    await api.db.update(users).set({ mfaPhone: null }).where(eq(users.email, email));
    const changed = await api.call('PATCH', '/api/v1/users', {
      token: await api.signInToken({ email, password: NEW_PASSWORD }),
      body: { user: { current_password: NEW_PASSWORD, password: `${NEW_PASSWORD}, changed` } },
    });
    expect(changed.status).toBe(200);

    const emails = await api.mailTo(email);
    for (const message of emails) {
      for (const part of [message.subject ?? '', message.textBody, message.htmlBody ?? '']) {
        expect(part).not.toContain(HOSTILE_NAME);
        for (const giveaway of GIVEAWAYS) expect(part).not.toContain(giveaway);
      }
      expect(message.textBody).toMatch(/^Hello,\n\n/);
      expect(message.htmlBody).toContain('\n<p>Hello,</p>\n');
    }
    expect(emails.map((message) => message.subject)).toEqual([
      'Confirm your Member Concierge email address',
      'Reset your Member Concierge password',
      'Your Member Concierge account was locked',
      'Your Member Concierge account was locked',
      'Sign-in codes for your Member Concierge account are paused',
      'Sign-in codes for your Member Concierge account are paused',
      'Your Member Concierge password was changed',
      'Your Member Concierge password was changed',
    ]);
  });
});
