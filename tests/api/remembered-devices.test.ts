import { createHash, randomInt } from 'node:crypto';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedDevices, securityEvents } from '../../api/db/schema/index.ts';
import { SIGN_IN_MINIMUM_DURATION_MS } from '../../api/services/sign-in/timing.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import {
  REMEMBERED_DEVICE_LIFETIME_MS,
  REMEMBERED_DEVICES_PER_MEMBER,
} from '../../api/services/sign-in/remembered-devices.ts';
import { generateToken } from '../../api/services/tokens.ts';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import {
  bearer,
  codeFromText,
  jsonRequest,
  randomClientAddress,
  reloadUser,
  startTestApi,
  tokenFromLink,
  type TestApi,
  type TestUser,
  type TestUserOptions,
} from './support.ts';

/**
 * "Remember this device" (docs/PRODUCT.md §11.2, §12): `remember_device` at the second step gives
 * a device token; sent with the password at sign-in, it takes the step for 30 days. Only the
 * member's own unexpired token skips anything, and never the password; the devices are listed,
 * forgotten, and go with every change that ends all sessions or the last factor.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const MFA_REQUIRED = { error: 'MFA authentication required' };
const INVALID_CREDENTIALS = { error: 'Invalid email or password.' };
const NOT_REMEMBERED = { error: 'That device is no longer remembered.' };
const NEW_PASSWORD = 'a brand new passphrase';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface StepAnswer {
  success: true;
  device_token?: string;
  device_token_expires_at?: string;
  recovery_codes?: string[];
}

interface ListedDevice {
  id: string;
  browser: string;
  system: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

/** A US number of its own for each member, so that the texts to it are that member's alone. */
function uniquePhone(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

/** The code an app showing `secret` displays now. */
function appCode(secret: Uint8Array): string {
  return totpCodeAt(secret, totpStep(api.clock.now()));
}

/** POST /mfa/verify (or another step route) as a browser would, with a `User-Agent`. */
function step(
  path: '/api/v1/mfa/verify' | '/api/v1/mfa/app/confirm',
  token: string,
  body: Record<string, unknown>,
  options: { mfaToken?: string; userAgent?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    ...bearer(token),
    'X-Forwarded-For': randomClientAddress(),
  };
  if (options.mfaToken) headers['mfa-token'] = options.mfaToken;
  if (options.userAgent) headers['User-Agent'] = options.userAgent;
  return Promise.resolve(api.app.request(path, jsonRequest(body, headers)));
}

/** POST /users/sign_in with the password and, unless undefined, a device token. */
function signInWithDevice(
  account: Pick<TestUser, 'email' | 'password'>,
  deviceToken: unknown,
): Promise<Response> {
  const body: Record<string, unknown> = {
    user: { email: account.email, password: account.password },
  };
  if (deviceToken !== undefined) body['device_token'] = deviceToken;
  return Promise.resolve(
    api.app.request(
      '/api/v1/users/sign_in',
      jsonRequest(body, { 'X-Forwarded-For': randomClientAddress() }),
    ),
  );
}

function bearerOf(response: Response): string {
  const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1];
  if (!token) throw new Error(`No bearer token; status ${response.status}.`);
  return token;
}

/** Texts a code to the member's phone for this session and takes the step with it. */
async function verifyByText(
  token: string,
  phone: string,
  extra: Record<string, unknown> = {},
  options: { userAgent?: string; mfaToken?: string } = {},
): Promise<Response> {
  const { mfaToken } = options;
  expect((await api.call('POST', '/api/v1/mfa/send-otp', { token, mfaToken })).status).toBe(200);
  const text = (await api.mailTo(phone)).at(-1);
  if (!text) throw new Error(`No text to ${phone}.`);
  return step('/api/v1/mfa/verify', token, { otp: codeFromText(text.textBody), ...extra }, options);
}

/**
 * A member whose factor is a phone, who took the step with "Remember this device": the session,
 * its mfa token and the device token.
 */
async function rememberedMember(options: TestUserOptions = {}, userAgent = CHROME_ON_LINUX) {
  const phone = uniquePhone();
  const account = await api.createUser({ ...options, mfaPhone: phone });
  const token = await api.signInToken(account);
  const answer = await verifyByText(token, phone, { remember_device: true }, { userAgent });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as StepAnswer;
  if (!body.device_token) throw new Error('No device token.');
  return {
    account,
    phone,
    token,
    mfaToken: answer.headers.get('mfa-token') ?? '',
    deviceToken: body.device_token,
  };
}

/** A member with a confirmed authenticator app, its secret, recovery codes and a proved session. */
async function memberWithApp(confirmBody: Record<string, unknown> = {}) {
  const account = await api.createUser();
  const token = await api.signInToken(account);
  const setup = (await (await api.call('POST', '/api/v1/mfa/app', { token })).json()) as {
    secret: string;
  };
  const secret = decodeBase32IgnorePadding(setup.secret);
  const confirmed = await step('/api/v1/mfa/app/confirm', token, {
    otp: appCode(secret),
    ...confirmBody,
  });
  expect(confirmed.status).toBe(200);
  const body = (await confirmed.json()) as StepAnswer;
  return {
    account,
    token,
    secret,
    body,
    codes: body.recovery_codes ?? [],
    mfaToken: confirmed.headers.get('mfa-token') ?? '',
  };
}

async function devicesOf(userId: number) {
  return api.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, userId));
}

async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id));
  return rows.map((row) => row.kind).reverse();
}

async function listDevices(token: string, mfaToken: string): Promise<ListedDevice[]> {
  const response = await api.call('GET', '/api/v1/users/remembered-devices', { token, mfaToken });
  expect(response.status).toBe(200);
  return ((await response.json()) as { remembered_devices: ListedDevice[] }).remembered_devices;
}

/** The sign-in took the step: a session as after POST /mfa/verify. */
async function expectStepSkipped(response: Response): Promise<void> {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    expires_at: expect.any(String) as unknown,
    mfa_requires_verification: false,
    mfa_required: false,
    device_remembered: true,
  });
  const mfaToken = response.headers.get('mfa-token') ?? '';
  expect(mfaToken).toMatch(TOKEN);
  expect((await api.getCurrentUser(bearerOf(response), mfaToken)).status).toBe(200);
}

/** The sign-in asked for the step as usual, and told the web tier to drop its token. */
async function expectStepAsked(response: Response): Promise<void> {
  expect(response.status).toBe(200);
  expect(response.headers.get('mfa-token')).toBeNull();
  expect(await response.json()).toEqual({
    expires_at: expect.any(String) as unknown,
    mfa_requires_verification: false,
    mfa_required: true,
    device_remembered: false,
  });
  const token = bearerOf(response);
  const current = await api.getCurrentUser(token);
  expect(current.status).toBe(401);
  expect(await current.json()).toEqual(MFA_REQUIRED);
}

describe('remembering a device at the second step', () => {
  it('gives a 256-bit device token for 30 days, kept only hashed, with the browser and an event', async () => {
    const phone = uniquePhone();
    const account = await api.createUser({ mfaPhone: phone });
    const token = await api.signInToken(account);

    const answer = await verifyByText(
      token,
      phone,
      { remember_device: true },
      { userAgent: CHROME_ON_LINUX },
    );

    expect(answer.status).toBe(200);
    const body = (await answer.json()) as StepAnswer;
    expect(body).toEqual({
      success: true,
      device_token: expect.stringMatching(TOKEN) as unknown,
      device_token_expires_at: new Date(
        api.clock.now().getTime() + REMEMBERED_DEVICE_LIFETIME_MS,
      ).toISOString(),
    });
    expect(answer.headers.get('mfa-token')).toMatch(TOKEN);
    const [row, ...others] = await devicesOf(account.user.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      tokenHash: createHash('sha256')
        .update(body.device_token ?? '')
        .digest('hex'),
      createdAt: api.clock.now(),
      lastUsedAt: null,
      userAgent: CHROME_ON_LINUX,
    });
    expect(JSON.stringify(row)).not.toContain(body.device_token);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('device_remembered');
  });

  it('gives nothing without remember_device, or with it false', async () => {
    const phone = uniquePhone();
    const account = await api.createUser({ mfaPhone: phone });

    const without = await verifyByText(await api.signInToken(account), phone);
    api.clock.advanceBy(2 * MINUTE);
    const withFalse = await verifyByText(await api.signInToken(account), phone, {
      remember_device: false,
    });

    expect(await without.json()).toEqual({ success: true });
    expect(await withFalse.json()).toEqual({ success: true });
    expect(await devicesOf(account.user.id)).toEqual([]);
    expect(await eventKinds(account.user.id)).not.toContain('device_remembered');
  });

  it('refuses a remember_device that is not true or false, as any invalid field', async () => {
    const account = await api.createUser({ mfaPhone: uniquePhone() });
    const token = await api.signInToken(account);

    const response = await step('/api/v1/mfa/verify', token, {
      otp: '123456',
      remember_device: 'yes',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'remember_device must be true or false.',
      field: 'remember_device',
    });
  });

  it('gives nothing when the code is refused', async () => {
    const account = await api.createUser({ mfaPhone: uniquePhone() });
    const token = await api.signInToken(account);
    expect((await api.call('POST', '/api/v1/mfa/send-otp', { token })).status).toBe(200);

    const response = await step('/api/v1/mfa/verify', token, {
      otp: '000000',
      remember_device: true,
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'Unable to verify MFA token' });
    expect(await devicesOf(account.user.id)).toEqual([]);
  });

  it('works with the authenticator app at confirmation and at the step', async () => {
    const { account, secret, body } = await memberWithApp({ remember_device: true });
    expect(body.device_token).toMatch(TOKEN);
    expect(body.recovery_codes).toHaveLength(10);
    expect(body.device_token_expires_at).toBe(
      new Date(api.clock.now().getTime() + REMEMBERED_DEVICE_LIFETIME_MS).toISOString(),
    );

    api.clock.advanceBy(30 * SECOND);
    const later = await api.signInToken(account);
    const answer = await step('/api/v1/mfa/verify', later, {
      otp: appCode(secret),
      method: 'app',
      remember_device: true,
    });

    expect(answer.status).toBe(200);
    const { device_token: second } = (await answer.json()) as StepAnswer;
    expect(second).toMatch(TOKEN);
    expect(second).not.toBe(body.device_token);
    expect(await devicesOf(account.user.id)).toHaveLength(2);
    await expectStepSkipped(await signInWithDevice(account, body.device_token));
    await expectStepSkipped(await signInWithDevice(account, second));
  });

  it('works with a recovery code, which still says how many are left', async () => {
    const { account, codes } = await memberWithApp();
    const token = await api.signInToken(account);

    const answer = await step('/api/v1/mfa/verify', token, {
      otp: codes[0] ?? '',
      method: 'recovery_code',
      remember_device: true,
    });

    expect(answer.status).toBe(200);
    const body = (await answer.json()) as StepAnswer & { recovery_codes_left: number };
    expect(body).toMatchObject({ success: true, recovery_codes_left: 9 });
    await expectStepSkipped(await signInWithDevice(account, body.device_token));
  });

  it(`keeps at most ${REMEMBERED_DEVICES_PER_MEMBER} per member: one more forgets the oldest`, async () => {
    const { account, secret, body } = await memberWithApp({ remember_device: true });
    const tokens = [body.device_token ?? ''];
    for (let index = 1; index <= REMEMBERED_DEVICES_PER_MEMBER; index += 1) {
      // A new 30-second step each time, and slower than the limit on checks of the step.
      api.clock.advanceBy(2 * MINUTE);
      const answer = await step('/api/v1/mfa/verify', await api.signInToken(account), {
        otp: appCode(secret),
        method: 'app',
        remember_device: true,
      });
      expect(answer.status).toBe(200);
      tokens.push(((await answer.json()) as StepAnswer).device_token ?? '');
    }

    expect(tokens).toHaveLength(REMEMBERED_DEVICES_PER_MEMBER + 1);
    expect(await devicesOf(account.user.id)).toHaveLength(REMEMBERED_DEVICES_PER_MEMBER);
    await expectStepAsked(await signInWithDevice(account, tokens[0]));
    await expectStepSkipped(await signInWithDevice(account, tokens[1]));
    await expectStepSkipped(await signInWithDevice(account, tokens.at(-1)));
  });
});

describe('signing in with a device token', () => {
  it('skips the step with the member’s own token, and writes down its use', async () => {
    const { account, deviceToken } = await rememberedMember();
    api.clock.advanceBy(MINUTE);

    const response = await signInWithDevice(account, deviceToken);

    await expectStepSkipped(response);
    const [row] = await devicesOf(account.user.id);
    expect(row?.lastUsedAt).toEqual(api.clock.now());
    expect((await eventKinds(account.user.id)).at(-1)).toBe('signed_in');
  });

  it('answers as before without a token: the step is asked, no device_remembered', async () => {
    const { account } = await rememberedMember();

    const response = await signInWithDevice(account, undefined);

    expect(response.status).toBe(200);
    expect(response.headers.get('mfa-token')).toBeNull();
    expect(await response.json()).toEqual({
      expires_at: expect.any(String) as unknown,
      mfa_requires_verification: false,
      mfa_required: true,
    });
  });

  it('asks the step for a forged token, and says the token is no good', async () => {
    const { account } = await rememberedMember();

    await expectStepAsked(await signInWithDevice(account, generateToken()));
  });

  it('asks the step for a malformed or empty token', async () => {
    const { account, deviceToken } = await rememberedMember();

    for (const malformed of ['not a token', '', `${deviceToken}x`, deviceToken.slice(1)]) {
      await expectStepAsked(await signInWithDevice(account, malformed));
    }
  });

  it('asks the step for another member’s token, which keeps working for its owner', async () => {
    const owner = await rememberedMember();
    const other = await rememberedMember();

    await expectStepAsked(await signInWithDevice(other.account, owner.deviceToken));

    expect(await devicesOf(owner.account.user.id)).toHaveLength(1);
    await expectStepSkipped(await signInWithDevice(owner.account, owner.deviceToken));
  });

  it('works until 30 days after the step, then asks the step and deletes the device', async () => {
    const { account, deviceToken } = await rememberedMember();

    api.clock.advanceBy(REMEMBERED_DEVICE_LIFETIME_MS - 1);
    await expectStepSkipped(await signInWithDevice(account, deviceToken));
    api.clock.advanceBy(1);

    await expectStepAsked(await signInWithDevice(account, deviceToken));
    expect(await devicesOf(account.user.id)).toEqual([]);
  });

  it('answers a wrong password exactly as without a token, counts it, and uses nothing', async () => {
    const { account, deviceToken } = await rememberedMember();
    const started = performance.now();

    const response = await signInWithDevice(
      { email: account.email, password: 'a wrong password' },
      deviceToken,
    );

    expect(performance.now() - started).toBeGreaterThanOrEqual(SIGN_IN_MINIMUM_DURATION_MS - 5);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID_CREDENTIALS);
    expect(response.headers.get('Authorization')).toBeNull();
    expect(response.headers.get('mfa-token')).toBeNull();
    expect((await reloadUser(api.db, account.user.id)).failedAttempts).toBe(1);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('sign_in_failed');
    const [row] = await devicesOf(account.user.id);
    expect(row?.lastUsedAt).toBeNull();
  });

  it('keeps a locked account locked, the right password and a good token notwithstanding', async () => {
    const { account, deviceToken } = await rememberedMember();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      const failed = await signInWithDevice(
        { email: account.email, password: 'a wrong password' },
        deviceToken,
      );
      expect(failed.status).toBe(401);
    }

    const response = await signInWithDevice(account, deviceToken);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID_CREDENTIALS);
    expect(response.headers.get('mfa-token')).toBeNull();
  });

  it('skips nothing for a member without a second factor', async () => {
    const account = await api.createUser();

    const response = await signInWithDevice(account, generateToken());

    expect(response.headers.get('mfa-token')).toBeNull();
    expect(await response.json()).toEqual({
      expires_at: expect.any(String) as unknown,
      mfa_requires_verification: true,
      mfa_required: false,
      device_remembered: false,
    });
  });

  it('refuses a device_token that is not a string or is over 128 characters', async () => {
    const account = await api.createUser();

    const tooLong = await signInWithDevice(account, 'a'.repeat(129));
    const notText = await signInWithDevice(account, 12345);

    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      error: 'device_token must be at most 128 characters.',
      field: 'device_token',
    });
    expect(notText.status).toBe(400);
    expect(await notText.json()).toEqual({
      error: 'device_token must be a string.',
      field: 'device_token',
    });
  });
});

describe('GET /api/v1/users/remembered-devices', () => {
  it('lists the member’s own unexpired devices, newest first, with browser and system', async () => {
    const { account, phone, token, mfaToken } = await rememberedMember({}, CHROME_ON_LINUX);
    const firstAt = api.clock.now();
    api.clock.advanceBy(2 * MINUTE);
    const second = await verifyByText(
      await api.signInToken(account),
      phone,
      { remember_device: true },
      { userAgent: SAFARI_ON_IPHONE },
    );
    const secondToken = ((await second.json()) as StepAnswer).device_token;
    const secondAt = api.clock.now();
    await rememberedMember();
    api.clock.advanceBy(MINUTE);
    await expectStepSkipped(await signInWithDevice(account, secondToken));

    const listed = await listDevices(token, mfaToken);

    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as unknown,
        browser: 'Safari 17.5',
        system: 'iOS',
        created_at: secondAt.toISOString(),
        last_used_at: api.clock.now().toISOString(),
        expires_at: new Date(secondAt.getTime() + REMEMBERED_DEVICE_LIFETIME_MS).toISOString(),
      },
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as unknown,
        browser: 'Chrome 140',
        system: 'Linux',
        created_at: firstAt.toISOString(),
        last_used_at: null,
        expires_at: new Date(firstAt.getTime() + REMEMBERED_DEVICE_LIFETIME_MS).toISOString(),
      },
    ]);
    const rows = await devicesOf(account.user.id);
    for (const device of listed) {
      expect(rows.some((row) => String(row.id) === device.id)).toBe(false);
      expect(rows.some((row) => row.tokenHash.includes(device.id))).toBe(false);
    }
  });

  it('no longer lists a device once it has expired', async () => {
    const { account, deviceToken } = await rememberedMember();
    api.clock.advanceBy(REMEMBERED_DEVICE_LIFETIME_MS - MINUTE);
    const signedIn = await signInWithDevice(account, deviceToken);
    const token = bearerOf(signedIn);
    const mfaToken = signedIn.headers.get('mfa-token') ?? '';
    expect(await listDevices(token, mfaToken)).toHaveLength(1);

    api.clock.advanceBy(MINUTE);

    expect(await listDevices(token, mfaToken)).toEqual([]);
  });

  it('takes a session past its MFA step', async () => {
    const { account } = await rememberedMember();
    const passwordOnly = await api.signInToken(account);

    const response = await api.call('GET', '/api/v1/users/remembered-devices', {
      token: passwordOnly,
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });
});

describe('forgetting remembered devices', () => {
  it('forgets one by its id: its token no longer skips the step, and the event is recorded', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();
    const [listed] = await listDevices(token, mfaToken);

    const response = await api.call(
      'DELETE',
      `/api/v1/users/remembered-devices/${listed?.id ?? ''}`,
      { token, mfaToken },
    );

    expect(response.status).toBe(204);
    expect(await devicesOf(account.user.id)).toEqual([]);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('remembered_device_forgotten');
    await expectStepAsked(await signInWithDevice(account, deviceToken));
    const again = await api.call('DELETE', `/api/v1/users/remembered-devices/${listed?.id ?? ''}`, {
      token,
      mfaToken,
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual(NOT_REMEMBERED);
  });

  it('answers 404 for another member’s device, and leaves it remembered', async () => {
    const owner = await rememberedMember();
    const other = await rememberedMember();
    const [ownersDevice] = await listDevices(owner.token, owner.mfaToken);

    const response = await api.call(
      'DELETE',
      `/api/v1/users/remembered-devices/${ownersDevice?.id ?? ''}`,
      { token: other.token, mfaToken: other.mfaToken },
    );

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(NOT_REMEMBERED);
    expect(await devicesOf(owner.account.user.id)).toHaveLength(1);
    expect(await eventKinds(other.account.user.id)).not.toContain('remembered_device_forgotten');
    await expectStepSkipped(await signInWithDevice(owner.account, owner.deviceToken));
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { token, mfaToken } = await rememberedMember();

    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '1', 'not-an-id', 'A'.repeat(23)]) {
      const response = await api.call('DELETE', `/api/v1/users/remembered-devices/${id}`, {
        token,
        mfaToken,
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_REMEMBERED);
    }
  });

  it('forgets every one of the member’s with DELETE /users/remembered-devices, no one else’s', async () => {
    const { account, phone, token, mfaToken, deviceToken } = await rememberedMember();
    api.clock.advanceBy(2 * MINUTE);
    await verifyByText(await api.signInToken(account), phone, { remember_device: true });
    const other = await rememberedMember();

    const response = await api.call('DELETE', '/api/v1/users/remembered-devices', {
      token,
      mfaToken,
    });

    expect(response.status).toBe(204);
    expect(await devicesOf(account.user.id)).toEqual([]);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('remembered_device_forgotten');
    await expectStepAsked(await signInWithDevice(account, deviceToken));
    await expectStepSkipped(await signInWithDevice(other.account, other.deviceToken));
  });

  it('takes a session past its MFA step to forget', async () => {
    const { account } = await rememberedMember();
    const passwordOnly = await api.signInToken(account);

    const response = await api.call('DELETE', '/api/v1/users/remembered-devices', {
      token: passwordOnly,
    });

    expect(response.status).toBe(401);
    expect(await devicesOf(account.user.id)).toHaveLength(1);
  });
});

describe('remembered devices end with every session and with the last factor', () => {
  /** The member's devices are gone, and their token asks the step again. */
  async function expectForgotten(account: TestUser, deviceToken: string): Promise<void> {
    expect(await devicesOf(account.user.id)).toEqual([]);
    await expectStepAsked(await signInWithDevice(account, deviceToken));
  }

  it('go with a password change, the caller’s browser too', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();

    const response = await api.call('PATCH', '/api/v1/users', {
      token,
      mfaToken,
      body: { user: { current_password: account.password, password: NEW_PASSWORD } },
    });

    expect(response.status).toBe(200);
    await expectForgotten({ ...account, password: NEW_PASSWORD }, deviceToken);
  });

  it('go when wrong current passwords lock the account, as every session does', async () => {
    const { account, token, mfaToken } = await rememberedMember();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.call('PATCH', '/api/v1/users', {
        token,
        mfaToken,
        body: { user: { current_password: 'a wrong password', password: NEW_PASSWORD } },
      });
    }

    expect(await devicesOf(account.user.id)).toEqual([]);
  });

  it('go with a password reset', async () => {
    const { account, deviceToken } = await rememberedMember();
    expect((await api.requestPasswordReset(account.email)).status).toBe(200);
    const mail = (await api.mailTo(account.email)).at(-1);

    const response = await api.resetPassword({
      reset_password_token: tokenFromLink(mail?.textBody ?? '', 'reset-password'),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });

    expect(response.status).toBe(200);
    await expectForgotten({ ...account, password: NEW_PASSWORD }, deviceToken);
  });

  it('go with an unlock by link', async () => {
    const { account, deviceToken } = await rememberedMember();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await signInWithDevice({ email: account.email, password: 'a wrong password' }, undefined);
    }
    // Still remembered while locked: the lock ends no session.
    expect(await devicesOf(account.user.id)).toHaveLength(1);
    const mail = (await api.mailTo(account.email)).at(-1);

    const response = await api.unlock(tokenFromLink(mail?.textBody ?? '', 'unlock'));

    expect(response.status).toBe(200);
    await expectForgotten(account, deviceToken);
  });

  it('go when the member ends every other session', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();

    const response = await api.call('DELETE', '/api/v1/users/sessions', { token, mfaToken });

    expect(response.status).toBe(200);
    await expectForgotten(account, deviceToken);
  });

  it('stay when one other session is ended', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();
    await api.signInToken(account);
    const sessions = (await (
      await api.call('GET', '/api/v1/users/sessions', { token, mfaToken })
    ).json()) as { sessions: { id: string; current: boolean }[] };
    const other = sessions.sessions.find((session) => !session.current);

    const response = await api.call('DELETE', `/api/v1/users/sessions/${other?.id ?? ''}`, {
      token,
      mfaToken,
    });

    expect(response.status).toBe(204);
    await expectStepSkipped(await signInWithDevice(account, deviceToken));
  });

  it('go when two-step verification is turned off', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();

    const response = await api.call('DELETE', '/api/v1/mfa', {
      token,
      mfaToken,
      body: { user: { current_password: account.password } },
    });

    expect(response.status).toBe(204);
    expect(await devicesOf(account.user.id)).toEqual([]);
    expect(await (await signInWithDevice(account, deviceToken)).json()).toMatchObject({
      mfa_required: false,
      device_remembered: false,
    });
  });

  it('go with the last factor, and stay while another is left', async () => {
    const { account, token, mfaToken, body } = await memberWithApp({ remember_device: true });
    const deviceToken = body.device_token ?? '';
    const phone = uniquePhone();
    expect(
      (await api.call('POST', '/api/v1/mfa', { token, mfaToken, body: { mfa_number: phone } }))
        .status,
    ).toBe(200);
    const enrolled = await verifyByText(token, phone, {}, { mfaToken });
    expect(enrolled.status).toBe(200);
    const newMfaToken = enrolled.headers.get('mfa-token') ?? '';
    const removeFactor = (factor: 'app' | 'phone') =>
      api.call('DELETE', `/api/v1/mfa/${factor}`, {
        token,
        mfaToken: newMfaToken,
        body: { user: { current_password: account.password } },
      });

    expect((await removeFactor('app')).status).toBe(204);
    expect(await devicesOf(account.user.id)).toHaveLength(1);
    await expectStepSkipped(await signInWithDevice(account, deviceToken));

    expect((await removeFactor('phone')).status).toBe(204);
    expect(await devicesOf(account.user.id)).toEqual([]);
  });

  it('go with the account', async () => {
    const { account, token, mfaToken } = await rememberedMember();

    const response = await api.call('DELETE', '/api/v1/users', {
      token,
      mfaToken,
      body: { user: { current_password: account.password } },
    });

    expect(response.status).toBe(204);
    expect(await devicesOf(account.user.id)).toEqual([]);
  });
});

describe('the data export', () => {
  it('lists the remembered devices without their token or its hash', async () => {
    const { account, token, mfaToken, deviceToken } = await rememberedMember();
    const rememberedAt = api.clock.now();
    const [row] = await devicesOf(account.user.id);

    const response = await api.call('GET', '/api/v1/users/current/export', { token, mfaToken });

    expect(response.status).toBe(200);
    const text = await response.text();
    expect((JSON.parse(text) as { remembered_devices: unknown }).remembered_devices).toEqual([
      {
        remembered_at: rememberedAt.toISOString(),
        last_used_at: null,
        expires_at: new Date(rememberedAt.getTime() + REMEMBERED_DEVICE_LIFETIME_MS).toISOString(),
        user_agent: CHROME_ON_LINUX,
      },
    ]);
    expect(text).not.toContain(deviceToken);
    expect(text).not.toContain(row?.tokenHash ?? 'no row');
  });
});
