import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, SECOND } from '../../platform/clock.ts';
import {
  latestLinkToken,
  lockAccount,
  resetToken,
  withOneCharacterChanged,
} from './attacks-support.ts';
import { reloadUser, startTestApi, TEST_PASSWORD, type TestApi, type TestUser } from './support.ts';

/**
 * The links of reset and unlock emails (docs/PRODUCT.md §11.2): single use, expiring (2 h and
 * 24 h), and good for nothing once changed in any way; a link only ever acts on its own account.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NEW_PASSWORD = 'a brand new passphrase';
const INVALID_RESET = {
  error: 'This password reset link is invalid or has expired. Please request a new one.',
  status: {
    message: 'This password reset link is invalid or has expired. Please request a new one.',
  },
};
const INVALID_UNLOCK = {
  error: 'This unlock link is invalid or has expired. You can request a new one.',
};

function reset(token: string, password = NEW_PASSWORD): Promise<Response> {
  return api.resetPassword({
    reset_password_token: token,
    password,
    password_confirmation: password,
  });
}

async function signsInWith(account: TestUser, password: string): Promise<boolean> {
  return (await api.signIn({ email: account.email, password })).status === 200;
}

/** Variants of a genuine token an attacker would try. */
function tamperedVariants(token: string): [string, string][] {
  return [
    ['one character changed', withOneCharacterChanged(token)],
    ['the last character changed', withOneCharacterChanged(token, token.length - 1)],
    ['truncated by one character', token.slice(0, -1)],
    ['truncated to half', token.slice(0, token.length / 2)],
    ['one character added', `${token}A`],
    ['upper-cased', token.toUpperCase()],
    ['with a space around it', ` ${token} `],
    ['empty', ''],
  ];
}

describe('password reset tokens', () => {
  it('are refused once used, even for the same password', async () => {
    const account = await api.createUser();
    const token = await resetToken(api, account);
    expect((await reset(token)).status).toBe(200);

    const replay = await reset(token, 'yet another passphrase');

    expect(replay.status).toBe(422);
    expect(await replay.json()).toEqual(INVALID_RESET);
    expect(await signsInWith(account, NEW_PASSWORD)).toBe(true);
  });

  it('are refused from 2 hours after they were sent', async () => {
    const account = await api.createUser();
    const token = await resetToken(api, account);
    api.clock.advanceBy(2 * HOUR);

    const response = await reset(token);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_RESET);
    expect(await signsInWith(account, TEST_PASSWORD)).toBe(true);
  });

  it('are accepted until just before their 2 hours end', async () => {
    const account = await api.createUser();
    const token = await resetToken(api, account);
    api.clock.advanceBy(2 * HOUR - SECOND);

    expect((await reset(token)).status).toBe(200);
  });

  it('are refused when tampered with in any way, and the genuine one still works after', async () => {
    const account = await api.createUser();
    const token = await resetToken(api, account);

    for (const [variant, tampered] of tamperedVariants(token)) {
      const response = await reset(tampered);
      expect({ variant, status: response.status }).toEqual({ variant, status: 422 });
      expect(await response.json()).toEqual(INVALID_RESET);
    }
    expect(await signsInWith(account, TEST_PASSWORD)).toBe(true);
    expect((await reset(token)).status).toBe(200);
  });

  it("change only their own account: another member's link never reaches this one", async () => {
    const victim = await api.createUser();
    const attacker = await api.createUser();
    const attackersToken = await resetToken(api, attacker);

    expect((await reset(attackersToken)).status).toBe(200);

    expect(await signsInWith(victim, TEST_PASSWORD)).toBe(true);
    expect(await signsInWith(victim, NEW_PASSWORD)).toBe(false);
    expect(await signsInWith(attacker, NEW_PASSWORD)).toBe(true);
  });

  it('are void once a newer link has been sent', async () => {
    const account = await api.createUser();
    const older = await resetToken(api, account);
    await resetToken(api, account);

    expect((await reset(older)).status).toBe(422);
  });
});

describe('unlock tokens', () => {
  it('are refused once used, and the account can be locked and unlocked again only by a new link', async () => {
    const account = await api.createUser();
    await lockAccount(api, account);
    const token = await latestLinkToken(api, account, 'unlock');
    expect((await api.unlock(token)).status).toBe(200);
    await lockAccount(api, account);

    const replay = await api.unlock(token);

    expect(replay.status).toBe(422);
    expect(await replay.json()).toEqual(INVALID_UNLOCK);
    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
  });

  it('are refused from 24 hours after they were sent', async () => {
    const account = await api.createUser();
    await lockAccount(api, account);
    const token = await latestLinkToken(api, account, 'unlock');
    api.clock.advanceBy(24 * HOUR);

    const response = await api.unlock(token);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_UNLOCK);
  });

  it('are refused when tampered with in any way, leaving the lock in place', async () => {
    const account = await api.createUser();
    await lockAccount(api, account);
    const token = await latestLinkToken(api, account, 'unlock');

    for (const [variant, tampered] of tamperedVariants(token)) {
      const response = await api.unlock(tampered);
      // An empty token is no token at all: 400, as for a missing parameter.
      const expected = tampered === '' ? 400 : 422;
      expect({ variant, status: response.status }).toEqual({ variant, status: expected });
    }
    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
    expect((await api.unlock(token)).status).toBe(200);
  });

  it("unlock only their own account: another member's link leaves this one locked", async () => {
    const victim = await api.createUser();
    const attacker = await api.createUser();
    await lockAccount(api, victim);
    await lockAccount(api, attacker);

    expect((await api.unlock(await latestLinkToken(api, attacker, 'unlock'))).status).toBe(200);

    expect((await reloadUser(api.db, victim.user.id)).lockedAt).not.toBeNull();
    expect(await signsInWith(victim, TEST_PASSWORD)).toBe(false);
  });

  it('are not reset tokens, and reset tokens are not unlock tokens', async () => {
    const account = await api.createUser();
    await lockAccount(api, account);
    const unlockToken = await latestLinkToken(api, account, 'unlock');
    const passwordToken = await resetToken(api, account);

    expect((await reset(unlockToken)).status).toBe(422);
    expect((await api.unlock(passwordToken)).status).toBe(422);
    expect((await reloadUser(api.db, account.user.id)).lockedAt).not.toBeNull();
  });
});
