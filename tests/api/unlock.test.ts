import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const UNLOCKED = { message: 'Your account has been unlocked. You can now sign in.' };
const INVALID_LINK = {
  error: 'This unlock link is invalid or has expired. You can request a new one.',
};
const LINK_REQUESTED = {
  message: 'If that account is locked, we have emailed a link to unlock it.',
};

/** Locks the account with 10 wrong passwords, sent together (they are counted exactly). */
async function lock(account: TestUser): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: LOCKOUT_THRESHOLD }, () =>
      api.signIn({ email: account.email, password: 'a wrong password' }),
    ),
  );
  expect(answers.map((response) => response.status)).toEqual(Array(LOCKOUT_THRESHOLD).fill(401));
  expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
}

/** The token of the newest unlock link emailed to the account. */
async function latestUnlockToken(account: TestUser): Promise<string> {
  const unlockEmails = (await api.mailTo(account.email)).filter((email) =>
    email.textBody.includes(`${TEST_PUBLIC_ORIGIN}/unlock/`),
  );
  const last = unlockEmails.at(-1);
  if (!last) throw new Error('No unlock email was written to the outbox.');
  return tokenFromLink(last.textBody, 'unlock');
}

describe('GET /api/v1/users/unlock', () => {
  it('unlocks the account with the emailed link, once', async () => {
    const account = await api.createUser();
    await lock(account);
    const token = await latestUnlockToken(account);

    const response = await api.unlock(token);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(UNLOCKED);
    const user = await reloadUser(api.db, account.user.id);
    expect(user.failedAttempts).toBe(0);
    expect(user.lockedAt).toBeNull();
    expect((await api.signIn(account)).status).toBe(200);

    const reused = await api.unlock(token);
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual(INVALID_LINK);
  });

  it('accepts a link until 24 hours after it was sent, and refuses it from then on', async () => {
    const early = await api.createUser();
    const late = await api.createUser();
    await lock(early);
    await lock(late);
    const earlyToken = await latestUnlockToken(early);
    const lateToken = await latestUnlockToken(late);

    api.clock.advanceBy(24 * HOUR - SECOND);
    expect((await api.unlock(earlyToken)).status).toBe(200);

    api.clock.advanceBy(SECOND);
    const expired = await api.unlock(lateToken);
    expect(expired.status).toBe(422);
    expect(await expired.json()).toEqual(INVALID_LINK);
  });

  it('refuses a tampered, a malformed or an unknown token without touching the lock', async () => {
    const account = await api.createUser();
    await lock(account);
    const token = await latestUnlockToken(account);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

    for (const candidate of [tampered, 'abc', `${token}x`, 'A'.repeat(43), '../../etc']) {
      const response = await api.unlock(candidate);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(INVALID_LINK);
    }
    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
  });

  it('refuses a password reset token in place of an unlock token', async () => {
    const account = await api.createUser();
    await lock(account);
    await api.requestPasswordReset(account.email);
    const resetEmail = (await api.mailTo(account.email)).at(-1);
    const resetToken = tokenFromLink(resetEmail?.textBody ?? '', 'reset-password');

    expect((await api.unlock(resetToken)).status).toBe(422);
  });

  it('answers 400 when the unlock_token parameter is missing', async () => {
    const response = await api.app.request('/api/v1/users/unlock');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'unlock_token is required.' });
  });

  it('still answers 200 for a valid link after the lock has lifted by itself', async () => {
    const account = await api.createUser();
    await lock(account);
    const token = await latestUnlockToken(account);
    api.clock.advanceBy(HOUR);

    expect((await api.unlock(token)).status).toBe(200);
  });
});

describe('POST /api/v1/users/unlock', () => {
  it('answers the same for a locked, an unlocked and an unknown account', async () => {
    const locked = await api.createUser();
    const unlocked = await api.createUser();
    await lock(locked);

    const answers = await Promise.all(
      [locked.email, unlocked.email, uniqueEmail()].map(async (email) => {
        const response = await api.requestUnlock(email);
        return { status: response.status, body: await response.text() };
      }),
    );

    for (const answer of answers) {
      expect(answer).toEqual({ status: 200, body: JSON.stringify(LINK_REQUESTED) });
    }
  });

  it('emails a new link only to a locked account, and voids the older link', async () => {
    const locked = await api.createUser();
    const unlocked = await api.createUser();
    await lock(locked);
    const older = await latestUnlockToken(locked);

    await api.requestUnlock(locked.email);
    await api.requestUnlock(unlocked.email);

    expect(await api.mailTo(locked.email)).toHaveLength(2);
    expect(await api.mailTo(unlocked.email)).toHaveLength(0);
    const newer = await latestUnlockToken(locked);
    expect(newer).not.toBe(older);
    expect((await api.unlock(older)).status).toBe(422);
    expect((await api.unlock(newer)).status).toBe(200);
  });

  it('sends nothing once the lock has lifted by itself', async () => {
    const account = await api.createUser();
    await lock(account);
    api.clock.advanceBy(HOUR);

    await api.requestUnlock(account.email);

    expect(await api.mailTo(account.email)).toHaveLength(1);
  });

  it('emails a link to the public origin, whatever Host the request names', async () => {
    const account = await api.createUser();
    await lock(account);

    await api.app.request(
      'http://attacker.example/api/v1/users/unlock',
      jsonRequest(
        { user: { email: account.email } },
        { Host: 'attacker.example', 'X-Forwarded-Host': 'attacker.example' },
      ),
    );

    const latest = (await api.mailTo(account.email)).at(-1);
    expect(latest?.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/unlock/`);
    expect(latest?.htmlBody).not.toContain('attacker');
  });
});
