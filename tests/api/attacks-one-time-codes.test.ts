import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../api/services/clock.ts';
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
import { startTestApi, type TestApi } from './support.ts';

/**
 * The codes texted for MFA (docs/PRODUCT.md §11.2, §12): single use, bound to the session they
 * were sent for, valid 10 minutes, void after 5 wrong tries.
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

  it('counts wrong tries sent at the same moment exactly', async () => {
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
