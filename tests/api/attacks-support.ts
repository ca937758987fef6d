import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import {
  codeFromText,
  reloadUser,
  TEST_PUBLIC_ORIGIN,
  tokenFromLink,
  type TestApi,
  type TestUser,
} from './support.ts';

/** Helpers shared by the attack tests (tests/api/attacks-*.test.ts). */

export const SESSION_EXPIRED = { error: 'Your session has expired. Please sign in again.' };
export const MFA_REQUIRED = { error: 'MFA authentication required' };
export const UNABLE_TO_VERIFY = { error: 'Unable to verify MFA token' };
export const TOO_MANY_ATTEMPTS = {
  error: 'Too many attempts. Please wait a few minutes and try again.',
};

/** A US number of its own for each member, so that the texts to it are that member's alone. */
export function uniquePhone(): { typed: string; e164: string } {
  const line = String(randomInt(0, 10_000_000)).padStart(7, '0');
  return { typed: `(555) ${line.slice(0, 3)}-${line.slice(3)}`, e164: `+1555${line}` };
}

/** Any 6-digit code but `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export function sendOtp(api: TestApi, token: string, mfaToken?: string): Promise<Response> {
  return api.call('POST', '/api/v1/mfa/send-otp', { token, mfaToken });
}

export function verifyOtp(
  api: TestApi,
  token: string,
  otp: string,
  mfaToken?: string,
): Promise<Response> {
  return api.call('POST', '/api/v1/mfa/verify', { token, mfaToken, body: { otp } });
}

/** The code of the newest text to `phone`. */
export async function lastCodeTo(api: TestApi, phone: string): Promise<string> {
  const text = (await api.mailTo(phone)).at(-1);
  if (!text) throw new Error(`No text to ${phone}.`);
  return codeFromText(text.textBody);
}

/** A member with an enrolled phone, signed in once: the session still awaits its code. */
export async function memberWithPhone(api: TestApi) {
  const phone = uniquePhone();
  const account = await api.createUser({ mfaPhone: phone.e164 });
  const token = await api.signInToken(account);
  return { account, phone: phone.e164, token };
}

/** Texts a code to the session's phone and verifies it; answers the session's mfa token. */
export async function completeMfa(api: TestApi, token: string, phone: string): Promise<string> {
  expect((await sendOtp(api, token)).status).toBe(200);
  const response = await verifyOtp(api, token, await lastCodeTo(api, phone));
  expect(response.status).toBe(200);
  const mfaToken = response.headers.get('mfa-token');
  if (!mfaToken) throw new Error('The verification issued no mfa token.');
  return mfaToken;
}

/** Locks the account with 10 wrong passwords, sent together (they are counted exactly). */
export async function lockAccount(api: TestApi, account: TestUser): Promise<void> {
  await Promise.all(
    Array.from({ length: LOCKOUT_THRESHOLD }, () =>
      api.signIn({ email: account.email, password: 'a wrong password' }),
    ),
  );
  expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
}

/** The token of the newest `reset-password` or `unlock` link emailed to the account. */
export async function latestLinkToken(
  api: TestApi,
  account: TestUser,
  path: 'reset-password' | 'unlock',
): Promise<string> {
  const emails = (await api.mailTo(account.email)).filter((email) =>
    email.textBody.includes(`${TEST_PUBLIC_ORIGIN}/${path}/`),
  );
  const last = emails.at(-1);
  if (!last) throw new Error(`No ${path} email was written to the outbox.`);
  return tokenFromLink(last.textBody, path);
}

/** Asks for a reset link for the account and answers its token. */
export async function resetToken(api: TestApi, account: TestUser): Promise<string> {
  expect((await api.requestPasswordReset(account.email)).status).toBe(200);
  return latestLinkToken(api, account, 'reset-password');
}

/** The same token with one character changed (still a well-formed token). */
export function withOneCharacterChanged(token: string, position = 10): string {
  const changed = token[position] === 'A' ? 'B' : 'A';
  return `${token.slice(0, position)}${changed}${token.slice(position + 1)}`;
}
