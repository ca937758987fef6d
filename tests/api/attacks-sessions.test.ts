import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../platform/clock.ts';
import {
  completeMfa,
  latestLinkToken,
  lockAccount,
  memberWithPhone,
  MFA_REQUIRED,
  resetToken,
  SESSION_EXPIRED,
} from './attacks-support.ts';
import { startTestApi, TEST_PASSWORD, type TestApi } from './support.ts';

/**
 * Sessions are ended by the server, not only forgotten by the client (docs/PRODUCT.md §11.2):
 * a copied token replayed after sign-out, a reset or an unlock is refused, verification by code
 * belongs to the one session that did it, and idleness and age end a session by the API's clock.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const NEW_PASSWORD = 'a brand new passphrase';

/** Calls of each kind a stolen token would be tried on: the account, the MFA step, the data. */
async function statusesWith(token: string, mfaToken?: string): Promise<number[]> {
  const calls = [
    api.call('GET', '/api/v1/users/current', { token, mfaToken }),
    api.call('GET', '/api/v1/mfa', { token, mfaToken }),
    api.call('GET', '/api/v1/requests', { token, mfaToken }),
    api.call('GET', '/api/v1/dashboard', { token, mfaToken }),
  ];
  return (await Promise.all(calls)).map((response) => response.status);
}

describe('replaying a session token the server has ended', () => {
  it('answers 401 on every kind of call to the token of a signed-out session', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);
    expect(await statusesWith(token)).toEqual([200, 200, 200, 200]);

    await api.signOut(token);

    expect(await statusesWith(token)).toEqual([401, 401, 401, 401]);
    expect(await (await api.getCurrentUser(token)).json()).toEqual(SESSION_EXPIRED);
  });

  it('answers 401 to a signed-out session that had completed MFA, mfa token and all', async () => {
    const { phone, token } = await memberWithPhone(api);
    const mfaToken = await completeMfa(api, token, phone);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);

    await api.signOut(token);

    expect(await statusesWith(token, mfaToken)).toEqual([401, 401, 401, 401]);
  });

  it('answers 401 to every session of the member once the password has been reset', async () => {
    const account = await api.createUser();
    const laptop = await api.signInToken(account);
    const phone = await api.signInToken(account);

    const response = await api.resetPassword({
      reset_password_token: await resetToken(api, account),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });

    expect(response.status).toBe(200);
    expect(await statusesWith(laptop)).toEqual([401, 401, 401, 401]);
    expect(await statusesWith(phone)).toEqual([401, 401, 401, 401]);
    expect((await api.signIn({ email: account.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('answers 401 to every session of the member once the account has been unlocked', async () => {
    const account = await api.createUser();
    const before = await api.signInToken(account);
    await lockAccount(api, account);
    // A lock does not end the sessions that exist; the unlock link does.
    expect((await api.getCurrentUser(before)).status).toBe(200);

    const response = await api.unlock(await latestLinkToken(api, account, 'unlock'));

    expect(response.status).toBe(200);
    expect(await statusesWith(before)).toEqual([401, 401, 401, 401]);
    expect((await api.signIn({ email: account.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('keeps the sessions of other members through a reset and an unlock', async () => {
    const bystander = await api.createUser();
    const bystanderToken = await api.signInToken(bystander);
    const account = await api.createUser();
    await api.resetPassword({
      reset_password_token: await resetToken(api, account),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    await lockAccount(api, account);
    await api.unlock(await latestLinkToken(api, account, 'unlock'));

    expect((await api.getCurrentUser(bystanderToken)).status).toBe(200);
  });
});

describe('session fixation around the MFA step', () => {
  it('does not upgrade the bearer token by itself: without the mfa token it still awaits MFA', async () => {
    const { phone, token } = await memberWithPhone(api);

    await completeMfa(api, token, phone);

    const response = await api.getCurrentUser(token);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });

  it('refuses the mfa token of another session of the same member', async () => {
    const { account, phone, token: verified } = await memberWithPhone(api);
    const mfaToken = await completeMfa(api, verified, phone);
    const other = await api.signInToken(account);

    const response = await api.getCurrentUser(other, mfaToken);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });

  it('refuses the mfa token of another member', async () => {
    const attacker = await memberWithPhone(api);
    const attackerMfaToken = await completeMfa(api, attacker.token, attacker.phone);
    const victim = await memberWithPhone(api);

    const response = await api.getCurrentUser(victim.token, attackerMfaToken);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });

  it('does not carry a verification into the next sign-in of the member', async () => {
    const { account, phone, token } = await memberWithPhone(api);
    const mfaToken = await completeMfa(api, token, phone);
    await api.signOut(token);

    const next = await api.signInToken(account);

    expect(await (await api.getCurrentUser(next, mfaToken)).json()).toEqual(MFA_REQUIRED);
    expect(await (await api.call('GET', '/api/v1/mfa', { token: next, mfaToken })).json()).toEqual(
      expect.objectContaining({ verified: false }),
    );
  });
});

describe('session timeouts, by the API clock', () => {
  it('accepts a session idle 29 minutes 59 seconds and refuses it once idle 30 minutes', async () => {
    const account = await api.createUser();
    const kept = await api.signInToken(account);
    const dropped = await api.signInToken(account);

    api.clock.advanceBy(30 * MINUTE - SECOND);
    expect((await api.getCurrentUser(kept)).status).toBe(200);
    api.clock.advanceBy(SECOND);

    expect((await api.getCurrentUser(dropped)).status).toBe(401);
    expect(await (await api.getCurrentUser(dropped)).json()).toEqual(SESSION_EXPIRED);
  });

  it('renews the idle timeout on any authenticated call, not only the current user', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    for (const path of ['/api/v1/requests', '/api/v1/dashboard', '/api/v1/request_categories']) {
      api.clock.advanceBy(25 * MINUTE);
      expect((await api.call('GET', path, { token })).status).toBe(200);
    }
    api.clock.advanceBy(25 * MINUTE);

    expect((await api.getCurrentUser(token)).status).toBe(200);
  });

  it('does not renew the idle timeout on a refused call: an idle session stays ended', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    api.clock.advanceBy(30 * MINUTE);
    expect((await api.getCurrentUser(token)).status).toBe(401);
    api.clock.advanceBy(MINUTE);

    expect((await api.getCurrentUser(token)).status).toBe(401);
  });

  it('ends a session 24 hours after sign-in, however busy it was', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    for (let elapsed = 0; elapsed < 24 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      api.clock.advanceBy(20 * MINUTE);
      expect((await api.getCurrentUser(token)).status).toBe(200);
    }
    api.clock.advanceBy(20 * MINUTE);

    expect((await api.getCurrentUser(token)).status).toBe(401);
  });

  it('ends an MFA session that waits too long for its code like any other', async () => {
    const { phone, token } = await memberWithPhone(api);

    api.clock.advanceBy(30 * MINUTE);

    expect((await api.call('POST', '/api/v1/mfa/send-otp', { token })).status).toBe(401);
    expect(await api.mailTo(phone)).toEqual([]);
  });
});
