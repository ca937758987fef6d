import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents, users } from '../../api/db/schema/index.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import { reloadUser, startTestApi, type TestApi, type TestUserOptions } from './support.ts';

/**
 * An authenticator app as the second step (docs/PRODUCT.md §11.2): POST /mfa/app gives a secret,
 * POST /mfa/app/confirm takes its first code, POST /mfa/verify with `method: "app"` takes a code
 * at sign-in, DELETE /mfa/app removes it. Codes are computed here from the secret the API gave,
 * at the API's (movable) clock, as an app on the member's phone would.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const MFA_REQUIRED = { error: 'MFA authentication required' };
const INVALID_CODE = { error: 'Unable to verify MFA token' };

const startSetup = (token: string, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/app', { token, mfaToken });
const confirm = (token: string, otp: unknown, mfaToken?: string) =>
  api.call('POST', '/api/v1/mfa/app/confirm', { token, mfaToken, body: { otp } });
const verifyWithApp = (token: string, otp: string) =>
  api.call('POST', '/api/v1/mfa/verify', { token, body: { otp, method: 'app' } });
const removeApp = (token: string, mfaToken: string | undefined, currentPassword: unknown) =>
  api.call('DELETE', '/api/v1/mfa/app', {
    token,
    mfaToken,
    body: { user: { current_password: currentPassword } },
  });
const mfaStatus = async (token: string, mfaToken?: string) =>
  (await (await api.call('GET', '/api/v1/mfa', { token, mfaToken })).json()) as {
    enrolled: boolean;
    methods: string[];
  };

/** The code an app showing `secret` displays now, or `steps` periods from now. */
function appCode(secret: Uint8Array, steps = 0): string {
  return totpCodeAt(secret, totpStep(api.clock.now()) + steps);
}

/** Moves the clock to the next 30-second step, so that the app shows a new code. */
function nextStep() {
  api.clock.advanceBy(30 * SECOND);
}

async function signedIn(options: TestUserOptions = {}) {
  const account = await api.createUser(options);
  const token = await api.signInToken(account);
  return { account, token };
}

/** A member with a confirmed app, signed in with a session that proved it. */
async function memberWithApp(options: TestUserOptions = {}) {
  const { account, token } = await signedIn(options);
  const setup = (await (await startSetup(token)).json()) as { secret: string; uri: string };
  const secret = decodeBase32IgnorePadding(setup.secret);
  const confirmed = await confirm(token, appCode(secret));
  expect(confirmed.status).toBe(200);
  return { account, token, secret, mfaToken: confirmed.headers.get('mfa-token') ?? '' };
}

async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id));
  return rows.map((row) => row.kind).reverse();
}

describe('setting up an authenticator app', () => {
  it('gives a secret and the address of its QR code, and keeps the secret only sealed', async () => {
    const { account, token } = await signedIn();

    const response = await startSetup(token);

    expect(response.status).toBe(200);
    const setup = (await response.json()) as { secret: string; uri: string };
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(setup.secret);
    expect(decodeURIComponent(uri.pathname)).toBe(`/Member Concierge:${account.email}`);
    const user = await reloadUser(api.db, account.user.id);
    expect(user.pendingTotpSecret).not.toBeNull();
    expect(user.pendingTotpSecret).not.toContain(setup.secret);
    expect(user.totpConfirmedAt).toBeNull();
    expect(await mfaStatus(token)).toMatchObject({ enrolled: false, methods: [] });
  });

  it('is confirmed by the first code: the session is past its step, the member emailed, the change recorded', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    expect(mfaToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    expect(await mfaStatus(token, mfaToken)).toMatchObject({ enrolled: true, methods: ['app'] });
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({ pendingTotpSecret: null });
    expect(user.totpConfirmedAt).toEqual(api.clock.now());
    expect((await api.mailTo(account.email)).map((mail) => mail.subject)).toEqual([
      'An authenticator app was added to your Member Concierge account',
    ]);
    expect(await eventKinds(account.user.id)).toEqual(['signed_in', 'authenticator_app_added']);
  });

  it('refuses a wrong first code, which changes nothing', async () => {
    const { account, token } = await signedIn();
    const setup = (await (await startSetup(token)).json()) as { secret: string };
    const secret = decodeBase32IgnorePadding(setup.secret);

    const response = await confirm(token, appCode(secret, 3));

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_CODE);
    expect((await reloadUser(api.db, account.user.id)).totpConfirmedAt).toBeNull();
  });

  it('answers 422 to a code when no app is being set up', async () => {
    const { token } = await signedIn();

    const response = await confirm(token, '123456');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Set up your authenticator app first, then enter a code from it.',
    });
  });

  it.each([
    ['no code', undefined],
    ['a number', 123456],
    ['65 characters', '1'.repeat(65)],
  ])('answers 400 to %s', async (_case, otp) => {
    const { token } = await signedIn();
    await startSetup(token);

    const response = await confirm(token, otp);

    expect(response.status).toBe(400);
  });

  it('takes a session past its step to add an app once the member has a factor', async () => {
    const { account } = await memberWithApp();
    const passwordOnly = await api.signInToken(account);

    const setup = await startSetup(passwordOnly);
    const confirmed = await confirm(passwordOnly, '123456');

    expect(setup.status).toBe(401);
    expect(await setup.json()).toEqual(MFA_REQUIRED);
    expect(confirmed.status).toBe(401);
  });

  it('replaces the app only when the new one’s first code is entered', async () => {
    const { account, token, secret, mfaToken } = await memberWithApp();
    const setup = (await (await startSetup(token, mfaToken)).json()) as { secret: string };
    const newSecret = decodeBase32IgnorePadding(setup.secret);
    nextStep();

    // Until then, the old app still takes the step.
    const meanwhile = await api.signInToken(account);
    expect((await verifyWithApp(meanwhile, appCode(secret))).status).toBe(200);

    nextStep();
    expect((await confirm(token, appCode(newSecret), mfaToken)).status).toBe(200);
    nextStep();
    const later = await api.signInToken(account);
    expect((await verifyWithApp(later, appCode(secret))).status).toBe(422);
    expect((await verifyWithApp(later, appCode(newSecret))).status).toBe(200);
    expect((await api.mailTo(account.email)).at(-1)?.textBody).toContain(
      'the app used before no longer works',
    );
  });
});

describe('signing in with the app', () => {
  it('asks a member with an app for the step, and a code from it takes the step', async () => {
    const { account, secret } = await memberWithApp();
    nextStep();
    const signIn = await api.signIn(account);
    const token = /^Bearer (.+)$/.exec(signIn.headers.get('Authorization') ?? '')?.[1] ?? '';
    // docs/PRODUCT.md §7: `mfa_required` asks for the step, `mfa_requires_verification` offers
    // enrollment.
    expect(await signIn.json()).toMatchObject({
      mfa_requires_verification: false,
      mfa_required: true,
    });
    expect((await api.getCurrentUser(token)).status).toBe(401);

    const response = await verifyWithApp(token, appCode(secret));

    expect(response.status).toBe(200);
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
  });

  it('accepts the code of the step before and after, not two steps away', async () => {
    const { account, secret } = await memberWithApp();
    nextStep();
    nextStep();
    nextStep();

    const token = await api.signInToken(account);
    expect((await verifyWithApp(token, appCode(secret, -2))).status).toBe(422);
    expect((await verifyWithApp(token, appCode(secret, 2))).status).toBe(422);
    expect((await verifyWithApp(token, appCode(secret, -1))).status).toBe(200);
    const another = await api.signInToken(account);
    expect((await verifyWithApp(another, appCode(secret, 1))).status).toBe(200);
  });

  it('accepts a code once: the same code, or an older one, is refused in any session', async () => {
    const { account, secret } = await memberWithApp();
    nextStep();
    const code = appCode(secret);
    const first = await api.signInToken(account);
    const second = await api.signInToken(account);

    expect((await verifyWithApp(first, code)).status).toBe(200);
    const replayed = await verifyWithApp(second, code);
    const older = await verifyWithApp(second, appCode(secret, -1));

    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toEqual(INVALID_CODE);
    expect(older.status).toBe(422);
  });

  it(
    'accepts one of two requests sending the same code at the same moment',
    { tags: ['database'] },
    async () => {
      const { account, secret } = await memberWithApp();
      nextStep();
      const code = appCode(secret);
      const sessions = [await api.signInToken(account), await api.signInToken(account)];

      const answers = await Promise.all(sessions.map((token) => verifyWithApp(token, code)));

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    },
  );

  it('refuses the code of the app’s secret when the member has no app, and a texted code in its place', async () => {
    const { token } = await signedIn();

    expect((await verifyWithApp(token, '123456')).status).toBe(422);
  });

  it('pauses every code of the account after 20 wrong ones in a day, and emails the member', async () => {
    const { account, secret } = await memberWithApp();
    nextStep();
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      // Slower than the limit on checks per 10 minutes, which would answer 429 first.
      api.clock.advanceBy(2 * MINUTE);
      const token = await api.signInToken(account);
      const answer = await verifyWithApp(token, appCode(secret, 5));
      expect(answer.status).toBe(attempt < 20 ? 422 : 403);
    }

    const token = await api.signInToken(account);
    const rightCode = await verifyWithApp(token, appCode(secret));

    expect(rightCode.status).toBe(403);
    expect(((await rightCode.json()) as { error: string }).error).toMatch(/paused/);
    expect((await reloadUser(api.db, account.user.id)).mfaCodesPausedAt).not.toBeNull();
    expect((await api.mailTo(account.email)).at(-1)?.subject).toMatch(/paused/i);
    expect(await eventKinds(account.user.id)).toContain('two_step_codes_paused');
  });

  it('does not count a reply that is not a code as a wrong try', async () => {
    const { account, secret } = await memberWithApp();
    nextStep();
    const token = await api.signInToken(account);

    for (let attempt = 0; attempt < 25; attempt += 1) {
      expect((await verifyWithApp(token, '12345')).status).toBe(422);
      api.clock.advanceBy(MINUTE);
    }

    expect((await verifyWithApp(token, appCode(secret))).status).toBe(200);
  });
});

describe('DELETE /api/v1/mfa/app', () => {
  it('removes the app with the current password, emails the member, and sign-in asks no code', async () => {
    const { account, token, mfaToken } = await memberWithApp();
    // A new app being set up goes with the old one.
    expect((await startSetup(token, mfaToken)).status).toBe(200);

    const response = await removeApp(token, mfaToken, account.password);

    expect(response.status).toBe(204);
    const user = await reloadUser(api.db, account.user.id);
    expect(user).toMatchObject({
      totpSecret: null,
      totpConfirmedAt: null,
      pendingTotpSecret: null,
      totpLastStep: null,
    });
    // Its only factor gone, the member is not offered a new one at once, as after DELETE /mfa.
    expect(user.mfaDeclinedAt).toEqual(api.clock.now());
    expect((await api.mailTo(account.email)).at(-1)?.subject).toBe(
      'The authenticator app was removed from your Member Concierge account',
    );
    expect((await eventKinds(account.user.id)).at(-1)).toBe('authenticator_app_removed');
    const signIn = await api.signIn(account);
    expect(await signIn.json()).toMatchObject({
      mfa_required: false,
      mfa_requires_verification: false,
    });
  });

  it('refuses a wrong current password under the field, keeping the app', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    const response = await removeApp(token, mfaToken, 'not the password');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Your current password is not right.',
      field: 'user.current_password',
    });
    expect((await reloadUser(api.db, account.user.id)).totpConfirmedAt).not.toBeNull();
  });

  it('refuses to remove the last factor where the company requires two-step verification', async () => {
    const { account, token, mfaToken } = await memberWithApp({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
    });

    const response = await removeApp(token, mfaToken, account.password);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error:
        'Your company requires two-step verification: add another way to sign in before you remove this one.',
    });
    expect((await reloadUser(api.db, account.user.id)).totpConfirmedAt).not.toBeNull();
  });

  it('removes it where the company requires the step when a phone is left', async () => {
    const { account, token, mfaToken } = await memberWithApp({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
    });
    await api.db
      .update(users)
      .set({ mfaPhone: '+15555550199' })
      .where(eq(users.id, account.user.id));

    expect((await removeApp(token, mfaToken, account.password)).status).toBe(204);
    // The phone still asks for the step: nothing is counted as declined.
    expect((await reloadUser(api.db, account.user.id)).mfaDeclinedAt).toBeNull();
  });

  it('answers 422 when there is no app', async () => {
    const { account, token } = await signedIn();

    const response = await removeApp(token, undefined, account.password);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'There is no authenticator app on your account.',
    });
  });

  it('takes a session past its step: a password alone cannot remove the app', async () => {
    const { account } = await memberWithApp();
    const passwordOnly = await api.signInToken(account);

    const response = await removeApp(passwordOnly, undefined, account.password);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });
});

describe('turning two-step verification off', () => {
  it('removes the app with the phone', async () => {
    const { account, token, mfaToken } = await memberWithApp();

    const response = await api.call('DELETE', '/api/v1/mfa', {
      token,
      mfaToken,
      body: { user: { current_password: account.password } },
    });

    expect(response.status).toBe(204);
    expect(await reloadUser(api.db, account.user.id)).toMatchObject({
      totpSecret: null,
      totpConfirmedAt: null,
      pendingTotpSecret: null,
    });
  });
});
