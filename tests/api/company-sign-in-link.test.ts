import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, secondStepFailures, sessions, users } from '../../api/db/schema/index.ts';
import { MFA_VERIFY_PER_USER } from '../../api/services/rate-limits.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { CODES_PAUSED_MESSAGE } from '../../api/services/factors/step.ts';
import { ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT } from '../../api/services/factors/one-time-codes.ts';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import { MINUTE } from '../../platform/clock.ts';
import type { OidcIdentityProvider } from '../../scripts/identity-providers/oidc-identity-provider.ts';
import {
  callbackQueryAfterSignIn,
  finishOidc,
  newPerson,
  oidcSignInSteps,
  sessionTokenOf,
  startApiWithOidcCompanies,
  startCompanySignIn,
} from './company-sign-in-support.ts';
import { type TestApi, type TestUserOptions } from './support.ts';

// docs/PRODUCT.md §15: an existing member links their account to the company's sign-in with a
// code of their authenticator app or one of their recovery codes instead of the password
// (POST /company_sign_in/link with `method`), checked exactly as at the MFA step. Linking by the
// password is in company-sign-in-oidc.test.ts.

let api: TestApi;
let acmeIdp: OidcIdentityProvider;
let globexIdp: OidcIdentityProvider;

beforeAll(async () => {
  ({ api, acmeIdp, globexIdp } = await startApiWithOidcCompanies());
});

afterAll(async () => {
  await api.close();
  await acmeIdp.stop();
  await globexIdp.stop();
});

const { signInThroughProvider, memberByEmail, eventKinds } = oidcSignInSteps(() => api);

/** The code an app showing `secret` displays now. */
const appCode = (secret: Uint8Array) => totpCodeAt(secret, totpStep(api.clock.now()));

/** A member of Acme's domain with an account here and a person at Acme's provider. */
async function existingMember(options: TestUserOptions = {}) {
  const person = newPerson(acmeIdp, 'acme.test');
  const account = await api.createUser({ ...options, email: person.email });
  return { person, account };
}

/** A member with a confirmed authenticator app and the recovery codes that came with it. */
async function memberWithApp() {
  const { person, account } = await existingMember();
  const token = await api.signInToken(account);
  const setup = await api.call('POST', '/api/v1/mfa/app', { token });
  const secret = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
  const confirmed = await api.call('POST', '/api/v1/mfa/app/confirm', {
    token,
    body: { otp: appCode(secret) },
  });
  expect(confirmed.status).toBe(200);
  const { recovery_codes: codes } = (await confirmed.json()) as { recovery_codes: string[] };
  // The confirming code's step is spent, and it counted as a try at the account's codes: ten
  // minutes on, the app shows a new code and the tries start again.
  api.clock.advanceBy(10 * MINUTE);
  return { person, account, token, secret, codes };
}

/** A sign-in at Acme's provider that found the member's address taken: its token. */
async function linkRequired(person: { email: string; password: string }): Promise<string> {
  const started = await startCompanySignIn(api, { email: person.email });
  const query = await callbackQueryAfterSignIn(started, person);
  const response = await finishOidc(api, started.token, query);
  expect(await response.json()).toMatchObject({ link_required: { email: person.email } });
  return started.token;
}

const linkWith = (token: string, method: 'app' | 'recovery_code', otp: string) =>
  api.call('POST', '/api/v1/company_sign_in/link', { body: { token, method, otp } });

const current = async (token: string): Promise<unknown> =>
  (await api.call('POST', '/api/v1/company_sign_in/current', { body: { token } })).json();

/** The wrong app and recovery codes counted against the account. */
const wrongCodesOf = async (userId: number): Promise<number> =>
  (await api.db.select().from(secondStepFailures).where(eq(secondStepFailures.userId, userId)))
    .length;

/** Whether the next sign-in at the provider goes straight through, the account linked. */
async function isLinked(person: { email: string; password: string }): Promise<boolean> {
  const again = await signInThroughProvider(person);
  return 'created' in ((await again.json()) as object);
}

describe('which proofs the link page offers', () => {
  it('names the app and the recovery codes of an account that has them', async () => {
    const { person } = await memberWithApp();
    expect(await current(await linkRequired(person))).toEqual({
      state: 'awaiting_link',
      email: person.email,
      company: { name: 'Acme' },
      link_methods: ['app', 'recovery_code'],
    });
  });

  it('names none for an account with a phone alone: a texted code does not link', async () => {
    const { person } = await existingMember({ mfaPhone: '+15550107777' });
    expect(await current(await linkRequired(person))).toMatchObject({ link_methods: [] });
  });
});

describe('linking with a code of the authenticator app', () => {
  it('links, records it and starts a session past the portal’s own step', async () => {
    const { person, account, secret } = await memberWithApp();
    const token = await linkRequired(person);

    const response = await linkWith(token, 'app', appCode(secret));

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      created: false,
      mfa_required: false,
      mfa_requires_verification: false,
    });
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect(mfaToken).not.toBe('');
    const me = await api.getCurrentUser(sessionTokenOf(response), mfaToken);
    expect(me.status).toBe(200);
    const verified = await api.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, account.user.id), isNotNull(sessions.mfaVerifiedAt)));
    expect(verified.length).toBeGreaterThan(0);
    expect(await eventKinds(account.user.id)).toEqual(
      expect.arrayContaining(['company_sign_in_linked', 'company_sign_in']),
    );
    expect((await linkWith(token, 'app', appCode(secret))).status).toBe(400);
    expect(await isLinked(person)).toBe(true);
  });

  it('refuses a code whose 30-second step was used already, and links nothing', async () => {
    const { person, token: sessionToken, secret } = await memberWithApp();
    const code = appCode(secret);
    const step = await api.call('POST', '/api/v1/mfa/verify', {
      token: sessionToken,
      body: { otp: code, method: 'app' },
    });
    expect(step.status).toBe(200);
    const token = await linkRequired(person);

    const replayed = await linkWith(token, 'app', code);

    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toEqual({ error: ErrorMessage.invalidMfaCode });
    expect(await current(token)).toMatchObject({ state: 'awaiting_link' });
  });

  it('counts wrong codes toward the account’s cap, whose last one pauses every code', async () => {
    const { person, account, secret } = await memberWithApp();
    let token = await linkRequired(person);
    const wrong = appCode(secret) === '000000' ? '111111' : '000000';

    for (let attempt = 1; attempt < ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT; attempt += 1) {
      const refused = await linkWith(token, 'app', wrong);
      expect(refused.status).toBe(422);
      // Past the tries an account's codes get in ten minutes (the next test), with a sign-in
      // that lives as long.
      if (attempt % MFA_VERIFY_PER_USER.limit === 0) {
        api.clock.advanceBy(10 * MINUTE);
        token = await linkRequired(person);
      }
    }
    expect(await wrongCodesOf(account.user.id)).toBe(
      ONE_TIME_CODE_MAX_FAILED_ATTEMPTS_PER_ACCOUNT - 1,
    );
    const last = await linkWith(token, 'app', wrong);
    expect(last.status).toBe(403);
    expect(await last.json()).toEqual({ error: CODES_PAUSED_MESSAGE });
    expect((await memberByEmail(person.email))?.mfaCodesPausedAt).not.toBeNull();
    expect((await api.mailTo(person.email)).at(-1)?.subject).toMatch(/paused/i);

    api.clock.advanceBy(10 * MINUTE);
    token = await linkRequired(person);
    const right = await linkWith(token, 'app', appCode(secret));
    expect(right.status).toBe(403);
    expect(await right.json()).toEqual({ error: CODES_PAUSED_MESSAGE });
    expect(await current(token)).toMatchObject({ state: 'awaiting_link' });
  });

  it('lets an account’s codes be tried ten times in ten minutes, here and at the step together', async () => {
    const { person, account, secret } = await memberWithApp();
    const token = await linkRequired(person);
    const wrong = appCode(secret) === '000000' ? '111111' : '000000';
    const signedIn = await api.signInToken(account);
    const atTheStep = await api.call('POST', '/api/v1/mfa/verify', {
      token: signedIn,
      body: { method: 'app', otp: wrong },
    });
    expect(atTheStep.status).toBe(422);

    for (let attempt = 2; attempt <= MFA_VERIFY_PER_USER.limit; attempt += 1) {
      expect((await linkWith(token, 'app', wrong)).status).toBe(422);
    }
    const tooMany = await linkWith(token, 'app', appCode(secret));

    expect(tooMany.status).toBe(429);
    expect(await current(token)).toMatchObject({ state: 'awaiting_link' });
    api.clock.advanceBy(10 * MINUTE);
    const later = await linkRequired(person);
    expect((await linkWith(later, 'app', appCode(secret))).status).toBe(200);
  });

  it('refuses an account locked by wrong passwords, spending and counting no code', async () => {
    const { person, account, secret, codes } = await memberWithApp();
    const token = await linkRequired(person);
    await api.db
      .update(users)
      .set({ lockedAt: api.clock.now(), failedAttempts: LOCKOUT_THRESHOLD })
      .where(eq(users.id, account.user.id));

    for (const [method, otp] of [
      ['app', appCode(secret)],
      ['recovery_code', codes[0] ?? ''],
    ] as const) {
      const refused = await linkWith(token, method, otp);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: ErrorMessage.lockedAccountLink });
    }
    expect(await wrongCodesOf(account.user.id)).toBe(0);
    expect(await current(token)).toMatchObject({ state: 'awaiting_link' });
    const unspent = await api.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, account.user.id), isNull(recoveryCodes.usedAt)));
    expect(unspent).toHaveLength(codes.length);
  });

  it('refuses the app’s method to an account without an app, without counting a try', async () => {
    const { person, account } = await existingMember({ mfaPhone: '+15550108888' });
    const token = await linkRequired(person);

    const refused = await linkWith(token, 'app', '123456');

    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: ErrorMessage.invalidMfaCode });
    expect(await wrongCodesOf(account.user.id)).toBe(0);
    expect(await current(token)).toMatchObject({ state: 'awaiting_link' });
  });
});

describe('linking with a recovery code', () => {
  it('links with one code, spends it and mails how many are left', async () => {
    const { person, account, codes } = await memberWithApp();
    const [code = ''] = codes;
    const token = await linkRequired(person);

    const response = await linkWith(token, 'recovery_code', code);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ created: false, recovery_codes_left: 9 });
    expect(response.headers.get('mfa-token')).toBeTruthy();
    expect((await api.mailTo(person.email)).at(-1)?.textBody).toContain(
      'You have 9 unused recovery codes left.',
    );
    expect(await eventKinds(account.user.id)).toEqual(
      expect.arrayContaining(['recovery_code_used', 'company_sign_in_linked', 'company_sign_in']),
    );
    expect((await linkWith(token, 'recovery_code', code)).status).toBe(400);
    const spent = await api.call('POST', '/api/v1/mfa/verify', {
      token: await api.signInToken(account),
      body: { otp: code, method: 'recovery_code' },
    });
    expect(spent.status).toBe(422);
    expect(await isLinked(person)).toBe(true);
  });

  it('refuses a wrong code as at the step, and counts it', async () => {
    const { person, account } = await memberWithApp();
    const token = await linkRequired(person);

    const refused = await linkWith(token, 'recovery_code', 'aaaaa-aaaaa');

    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: ErrorMessage.invalidRecoveryCode });
    expect(await wrongCodesOf(account.user.id)).toBe(1);
  });
});

describe('a token that is not this browser’s sign-in awaiting a link', () => {
  it('links nothing and spends no code: another browser’s sign-in on its way, or no sign-in', async () => {
    const { person, account, codes, secret } = await memberWithApp();
    const [code = ''] = codes;
    const stepBefore = (await memberByEmail(person.email))?.totpLastStep;
    await linkRequired(person);
    const elsewhere = await startCompanySignIn(api, { email: person.email });

    for (const token of [elsewhere.token, 'a'.repeat(43)]) {
      const byCode = await linkWith(token, 'recovery_code', code);
      expect(byCode.status).toBe(400);
      expect(await byCode.json()).toEqual({ error: ErrorMessage.companySignInExpired });
      expect((await linkWith(token, 'app', appCode(secret))).status).toBe(400);
    }
    const unused = await api.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, account.user.id));
    expect(unused.filter((row) => row.usedAt === null)).toHaveLength(10);
    expect((await memberByEmail(person.email))?.totpLastStep).toBe(stepBefore);
  });

  it(
    'links once for two proofs sent at the same moment, and spends no code for the other',
    { tags: ['database'] },
    async () => {
      const { person, account, codes, secret } = await memberWithApp();
      const token = await linkRequired(person);

      const answers = await Promise.all([
        linkWith(token, 'app', appCode(secret)),
        linkWith(token, 'recovery_code', codes[0] ?? ''),
      ]);

      const statuses = answers.map((answer) => answer.status);
      expect([...statuses].sort()).toEqual([200, 400]);
      const linked = (await eventKinds(account.user.id)).filter(
        (kind) => kind === 'company_sign_in_linked',
      );
      expect(linked).toHaveLength(1);
      const unused = await api.db
        .select()
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, account.user.id), isNull(recoveryCodes.usedAt)));
      // The recovery code is spent only when its request is the one that linked.
      expect(unused).toHaveLength(statuses[1] === 200 ? 9 : 10);
    },
  );

  it('refuses a method the link does not know', async () => {
    const { person } = await memberWithApp();
    const token = await linkRequired(person);
    const response = await api.call('POST', '/api/v1/company_sign_in/link', {
      body: { token, method: 'sms', otp: '123456' },
    });
    expect(response.status).toBe(400);
  });
});
