import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_REQUEST_MINIMUM_DURATION_MS } from '../../api/services/sign-in/account-tokens.ts';
import { HOUR, SECOND } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import {
  jsonRequest,
  reloadUser,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  tokenFromLink,
  uniqueEmail,
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

const REQUESTED = {
  message: 'If that email address has an account, we have emailed a link to reset its password.',
};
const INVALID_LINK =
  'This password reset link is invalid or has expired. Please request a new one.';
const NEW_PASSWORD = 'a brand new passphrase';

/** Requests a reset for the account and returns the token of the link it was emailed. */
async function emailedResetToken(account: TestUser): Promise<string> {
  expect((await api.requestPasswordReset(account.email)).status).toBe(200);
  const mail = await api.mailTo(account.email);
  const last = mail.at(-1);
  if (!last) throw new Error('No email was written to the outbox.');
  return tokenFromLink(last.textBody, 'reset-password');
}

function resetWith(token: string, password = NEW_PASSWORD, confirmation = password) {
  return api.resetPassword({
    reset_password_token: token,
    password,
    password_confirmation: confirmation,
  });
}

async function answerOf(response: Response) {
  return { status: response.status, body: await response.text() };
}

describe('POST /api/v1/users/password (requesting a reset)', () => {
  it('answers the same for a known and an unknown email, and emails only the known one', async () => {
    const account = await api.createUser();
    const unknown = uniqueEmail();

    const known = await answerOf(await api.requestPasswordReset(account.email));
    const stranger = await answerOf(await api.requestPasswordReset(unknown));

    expect(known).toEqual({ status: 200, body: JSON.stringify(REQUESTED) });
    expect(stranger).toEqual(known);
    expect(await api.mailTo(account.email)).toHaveLength(1);
    expect(await api.mailTo(unknown)).toHaveLength(0);
  });

  it('takes at least the same minimum time for a known and an unknown email', async () => {
    const account = await api.createUser();
    const timed = async (email: string) => {
      const started = performance.now();
      await api.requestPasswordReset(email);
      return performance.now() - started;
    };

    const durations = [await timed(uniqueEmail()), await timed(account.email)];

    for (const duration of durations) {
      expect(duration).toBeGreaterThanOrEqual(TOKEN_REQUEST_MINIMUM_DURATION_MS - 1);
    }
  });

  it('emails a link to the public origin, whatever Host or X-Forwarded-Host the request names', async () => {
    const account = await api.createUser();

    const response = await api.app.request(
      'http://attacker.example/api/v1/users/password',
      jsonRequest(
        { user: { email: account.email } },
        {
          Host: 'attacker.example',
          'X-Forwarded-Host': 'attacker.example',
          'X-Forwarded-Proto': 'http',
          'X-Forwarded-For': '2001:db8:aa:1::1',
        },
      ),
    );

    expect(response.status).toBe(200);
    const [email] = await api.mailTo(account.email);
    expect(email?.channel).toBe('email');
    expect(email?.subject).toBe('Reset your Member Concierge password');
    const token = tokenFromLink(email?.textBody ?? '', 'reset-password');
    const link = `${TEST_PUBLIC_ORIGIN}/reset-password/${token}`;
    expect(email?.textBody).toContain(link);
    expect(email?.htmlBody).toContain(`href="${link}"`);
    expect(`${email?.textBody ?? ''}${email?.htmlBody ?? ''}`).not.toContain('attacker');
  });

  it('finds the account whatever the letter case and spaces of the email', async () => {
    const account = await api.createUser();

    await api.requestPasswordReset(`  ${account.email.toUpperCase()} `);

    expect(await api.mailTo(account.email)).toHaveLength(1);
  });

  it('voids the older link when a newer one is requested', async () => {
    const account = await api.createUser();
    const older = await emailedResetToken(account);
    const newer = await emailedResetToken(account);

    expect(await (await resetWith(older)).json()).toMatchObject({
      status: { message: INVALID_LINK },
    });
    expect((await resetWith(newer)).status).toBe(200);
  });

  it('answers 400 naming the field to a request without a valid email', async () => {
    const response = await api.app.request(
      '/api/v1/users/password',
      jsonRequest({ user: { email: 'not an email' } }),
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'user.email must be an email address.',
      field: 'user.email',
    });
  });
});

describe('PUT /api/v1/users/password (choosing a new password)', () => {
  it('changes the password once, and refuses the same link afterwards', async () => {
    const account = await api.createUser();
    const token = await emailedResetToken(account);

    const first = await resetWith(token);

    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ message: 'Your password has been changed.' });
    expect((await api.signIn({ email: account.email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await api.signIn(account)).status).toBe(401);

    const again = await resetWith(token, 'yet another passphrase');

    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      error: INVALID_LINK,
      status: { message: INVALID_LINK },
    });
  });

  it('accepts a link until 2 hours after it was sent, and refuses it from then on', async () => {
    const early = await api.createUser();
    const late = await api.createUser();
    const earlyToken = await emailedResetToken(early);
    const lateToken = await emailedResetToken(late);

    api.clock.advanceBy(2 * HOUR - SECOND);
    expect((await resetWith(earlyToken)).status).toBe(200);

    api.clock.advanceBy(SECOND);
    const expired = await resetWith(lateToken);
    expect(expired.status).toBe(422);
    expect(await expired.json()).toMatchObject({ status: { message: INVALID_LINK } });
  });

  it('refuses a tampered, a malformed or an unknown token', async () => {
    const account = await api.createUser();
    const token = await emailedResetToken(account);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

    for (const candidate of [tampered, 'abc', '', `${token}x`, 'A'.repeat(43)]) {
      const response = await resetWith(candidate);
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ status: { message: INVALID_LINK } });
    }
    expect((await resetWith(token)).status).toBe(200);
  });

  it('refuses an unlock token in place of a reset token', async () => {
    const account = await api.createUser();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: account.email, password: 'a wrong password' });
    }
    const [unlockEmail] = await api.mailTo(account.email);
    const unlockToken = tokenFromLink(unlockEmail?.textBody ?? '', 'unlock');

    expect((await resetWith(unlockToken)).status).toBe(422);
  });

  it('refuses a confirmation that does not match, naming the field, keeping the link usable', async () => {
    const account = await api.createUser();
    const token = await emailedResetToken(account);

    const response = await resetWith(token, NEW_PASSWORD, `${NEW_PASSWORD}!`);

    expect(response.status).toBe(422);
    const message = 'Password confirmation does not match the password.';
    expect(await response.json()).toEqual({
      error: message,
      field: 'password_confirmation',
      status: { message, field: 'password_confirmation' },
    });
    expect((await resetWith(token)).status).toBe(200);
  });

  it.each([
    ['too short', 'short', 'Password must be at least 8 characters.'],
    ['too long', 'x'.repeat(129), 'Password must be at most 128 characters.'],
    ['common', 'password123', 'This password is too common. Please choose a less predictable one.'],
    ['the name', 'Avery Jordan', 'Password must not be your email address or your name.'],
  ])(
    'refuses a password that is %s with the rule’s own sentence, naming the field',
    async (_, password, message) => {
      const account = await api.createUser({ name: 'Avery', lastName: 'Jordan' });
      const token = await emailedResetToken(account);

      const response = await resetWith(token, password);

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        error: message,
        field: 'password',
        status: { message, field: 'password' },
      });
      expect((await resetWith(token)).status).toBe(200);
    },
  );

  it('refuses the email address as the password', async () => {
    const account = await api.createUser();
    const token = await emailedResetToken(account);

    const response = await resetWith(token, account.email.toUpperCase());

    expect(await response.json()).toMatchObject({
      status: { message: 'Password must not be your email address or your name.' },
    });
  });

  it.each([
    [
      { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      'reset_password_token is required.',
      'reset_password_token',
    ],
    [
      { reset_password_token: 'A'.repeat(43), password_confirmation: NEW_PASSWORD },
      'password is required.',
      'password',
    ],
    [
      { reset_password_token: 'A'.repeat(43), password: NEW_PASSWORD },
      'password_confirmation is required.',
      'password_confirmation',
    ],
    [
      { reset_password_token: 7, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      'reset_password_token must be a string.',
      'reset_password_token',
    ],
  ])(
    'answers 400 with status.message and the field to the malformed body %j',
    async (body, message, field) => {
      const response = await api.resetPassword(body);

      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: message, field, status: { message, field } });
    },
  );

  it('answers 400 with status.message to a body that is not JSON', async () => {
    const response = await api.app.request('/api/v1/users/password', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"reset_password_token": ',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Malformed JSON body.',
      status: { message: 'Malformed JSON body.' },
    });
  });

  it('ends every session of the member', async () => {
    const account = await api.createUser();
    const phone = await api.signInToken(account);
    const laptop = await api.signInToken(account);
    const token = await emailedResetToken(account);

    expect((await resetWith(token)).status).toBe(200);

    expect((await api.getCurrentUser(phone)).status).toBe(401);
    expect((await api.getCurrentUser(laptop)).status).toBe(401);
    const fresh = await api.signInToken({ email: account.email, password: NEW_PASSWORD });
    expect((await api.getCurrentUser(fresh)).status).toBe(200);
  });

  it('lifts a lockout, since the link proves the member reads the account’s email', async () => {
    const account = await api.createUser();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: account.email, password: 'a wrong password' });
    }
    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
    const token = await emailedResetToken(account);

    expect((await resetWith(token)).status).toBe(200);

    expect((await api.signIn({ email: account.email, password: NEW_PASSWORD })).status).toBe(200);
    const user = await reloadUser(api.db, account.user.id);
    expect(user.failedAttempts).toBe(0);
    expect(user.lockedAt).toBeNull();
  });

  it('emails the member that the password was changed', async () => {
    const account = await api.createUser({ name: 'Robin' });
    const token = await emailedResetToken(account);

    await resetWith(token);

    const confirmation = (await api.mailTo(account.email)).at(-1);
    expect(confirmation?.subject).toBe('Your Member Concierge password was changed');
    expect(confirmation?.textBody).toContain('Hello,');
    expect(confirmation?.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/forgot-password`);
    expect(confirmation?.textBody).not.toContain(token);
  });

  it(
    'changes the password only once when the same link is used twice at the same moment',
    { tags: ['database'] },
    async () => {
      const account = await api.createUser();
      const token = await emailedResetToken(account);

      const answers = await Promise.all([
        resetWith(token, 'first of two passphrases'),
        resetWith(token, 'second of two passphrases'),
      ]);

      expect(answers.map((response) => response.status).sort()).toEqual([200, 422]);
      const changedEmails = (await api.mailTo(account.email)).filter((email) =>
        email.subject?.includes('was changed'),
      );
      expect(changedEmails).toHaveLength(1);
    },
  );
});
