import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../platform/clock.ts';
import {
  reloadUser,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  tokenFromLink,
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

async function failSignIns(account: TestUser, times: number): Promise<void> {
  for (let attempt = 0; attempt < times; attempt += 1) {
    const response = await api.signIn({ email: account.email, password: 'a wrong password' });
    expect(response.status).toBe(401);
  }
}

describe('account lockout', () => {
  it('still lets a member in after 9 consecutive failures', async () => {
    const account = await api.createUser();
    await failSignIns(account, 9);

    expect((await api.signIn(account)).status).toBe(200);
  });

  it('locks the account at the 10th consecutive failure, refusing even the right password', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);

    const eleventh = await api.signIn(account);

    expect(eleventh.status).toBe(401);
    expect(await eleventh.json()).toEqual({ error: 'Invalid email or password.' });
    const user = await reloadUser(api.db, account.user.id);
    expect(user.failedAttempts).toBe(10);
    expect(user.lockedAt).toEqual(api.clock.now());
  });

  it('lifts the lock by itself one hour after it was set', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);

    api.clock.advanceBy(HOUR - MINUTE);
    expect((await api.signIn(account)).status).toBe(401);

    api.clock.advanceBy(MINUTE);
    expect((await api.signIn(account)).status).toBe(200);
    const user = await reloadUser(api.db, account.user.id);
    expect(user.failedAttempts).toBe(0);
    expect(user.lockedAt).toBeNull();
  });

  it('does not extend the lock when more attempts come in while locked', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);

    api.clock.advanceBy(50 * MINUTE);
    await failSignIns(account, 3);
    api.clock.advanceBy(10 * MINUTE);

    expect((await api.signIn(account)).status).toBe(200);
  });

  it('gives a member a full 10 attempts again once a lock has lifted', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);
    api.clock.advanceBy(HOUR);

    await failSignIns(account, 9);

    expect((await api.signIn(account)).status).toBe(200);
  });

  it('resets the failure counter on a successful sign-in', async () => {
    const account = await api.createUser();
    await failSignIns(account, 9);
    expect((await api.signIn(account)).status).toBe(200);
    expect((await reloadUser(api.db, account.user.id)).failedAttempts).toBe(0);

    await failSignIns(account, 9);

    expect((await api.signIn(account)).status).toBe(200);
  });

  it(
    'counts concurrent failures exactly, locking once all 10 are in',
    { tags: ['database'] },
    async () => {
      const account = await api.createUser();

      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.signIn({ email: account.email, password: 'a wrong password' }),
        ),
      );

      expect(answers.map((response) => response.status)).toEqual(Array(10).fill(401));
      const user = await reloadUser(api.db, account.user.id);
      expect(user.failedAttempts).toBe(10);
      expect(user.lockedAt).not.toBeNull();
      expect((await api.signIn(account)).status).toBe(401);
    },
  );

  it('counts failures per account, so another member is not affected', async () => {
    const locked = await api.createUser();
    const bystander = await api.createUser();
    await failSignIns(locked, 10);

    expect((await api.signIn(bystander)).status).toBe(200);
  });
});

describe('the unlock email', () => {
  it('is written at the 10th failure, once, with a link to the public origin', async () => {
    const account = await api.createUser({ name: 'Robin' });
    await failSignIns(account, 9);
    expect(await api.mailTo(account.email)).toHaveLength(0);

    await failSignIns(account, 1);
    const [email, ...others] = await api.mailTo(account.email);

    expect(others).toHaveLength(0);
    expect(email).toMatchObject({
      channel: 'email',
      subject: 'Your Member Concierge account was locked',
      sentAt: null,
    });
    const token = tokenFromLink(email?.textBody ?? '', 'unlock');
    expect(email?.textBody).toContain('Hello,');
    expect(email?.htmlBody).toContain(`href="${TEST_PUBLIC_ORIGIN}/unlock/${token}"`);
  });

  it('is not written again by attempts made while the account is locked', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);

    await failSignIns(account, 5);
    await api.signIn(account);

    expect(await api.mailTo(account.email)).toHaveLength(1);
  });

  it(
    'is written exactly once when 50 wrong guesses arrive at the same moment',
    { tags: ['database'] },
    async () => {
      const account = await api.createUser();

      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          api.signIn({ email: account.email, password: 'a wrong password' }),
        ),
      );

      expect(answers.map((response) => response.status)).toEqual(Array(50).fill(401));
      const user = await reloadUser(api.db, account.user.id);
      expect(user.failedAttempts).toBe(10);
      expect(user.lockedAt).not.toBeNull();
      expect(await api.mailTo(account.email)).toHaveLength(1);
    },
  );

  it('is written again for a new lock after the first one has lifted', async () => {
    const account = await api.createUser();
    await failSignIns(account, 10);
    api.clock.advanceBy(HOUR);

    await failSignIns(account, 10);

    expect(await api.mailTo(account.email)).toHaveLength(2);
  });

  it('does not change the sign-in answer, which never reveals the lock', async () => {
    const account = await api.createUser();
    await failSignIns(account, 9);

    const tenth = await api.signIn({ email: account.email, password: 'a wrong password' });

    expect(tenth.status).toBe(401);
    expect(await tenth.json()).toEqual({ error: 'Invalid email or password.' });
  });
});
