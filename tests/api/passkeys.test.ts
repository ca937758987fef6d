import { randomBytes, randomInt } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, securityEvents, users, webauthnChallenges } from '../../api/db/schema/index.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import {
  createSoftwareAuthenticator,
  type RegistrationFlags,
  type SoftwareAuthenticator,
} from '../support/software-authenticator.ts';
import {
  codeFromText,
  reloadUser,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  type TestApi,
  type TestUser,
  type TestUserOptions,
} from './support.ts';

/**
 * Passkeys (docs/PRODUCT.md §11.2): added under /mfa/passkeys as a second factor, taken at the
 * MFA step with POST /mfa/passkeys/verify, or alone at sign-in with /users/passkey-sign-in; listed
 * and removed with the password. A software authenticator (tests/support) plays the browser and
 * the device, so that the attacks a real browser would not make can be sent too: an old or
 * another session's challenge, another browser's challenge token, another member's credential, a
 * counter going backwards, another origin, no user verification.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const ORIGIN = TEST_PUBLIC_ORIGIN;
const RP_ID = new URL(TEST_PUBLIC_ORIGIN).hostname;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const CHALLENGE_LIFETIME_MS = 5 * MINUTE;

const MFA_REQUIRED = { error: 'MFA authentication required' };
const NOT_ADDED = { error: 'That passkey could not be added. Try again.' };
const NOT_CHECKED = { error: 'That passkey could not be checked. Try again, or use another way.' };
const NOT_SIGNED_IN = {
  error: 'That passkey could not sign you in. Try again, or sign in with your email and password.',
};
const NO_PASSKEY = { error: 'You have no passkey on your account.' };
const NOT_ON_ACCOUNT = { error: 'That passkey is no longer on your account.' };
const TOO_MANY = { error: 'You have 10 passkeys already: remove one before you add another.' };
const WRONG_PASSWORD = {
  error: 'Your current password is not right.',
  field: 'user.current_password',
};
const LAST_FACTOR_REQUIRED = {
  error:
    'Your company requires two-step verification: add another way to sign in before you remove this one.',
};

interface ListedPasskey {
  id: string | number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up: boolean;
}

interface AddedAnswer {
  success: true;
  passkey: ListedPasskey;
  recovery_codes?: string[];
  device_token?: string;
  device_token_expires_at?: string;
}

interface StepAnswer {
  success: true;
  device_token?: string;
  device_token_expires_at?: string;
}

/**
 * A signed-in browser: its bearer token and, once past the step, its mfa token, which each step
 * taken again (adding a passkey is one) replaces, as the web tier's cookie follows it.
 */
interface Session {
  token: string;
  mfaToken?: string | undefined;
}

const withPassword = (currentPassword: string) => ({
  user: { current_password: currentPassword },
});

async function signedIn(options: TestUserOptions = {}) {
  const account = await api.createUser(options);
  const token = await api.signInToken(account);
  return { account, token };
}

/** A US number of its own for each member, so that the texts to it are that member's alone. */
function uniquePhone(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

/** A member whose only factor is a phone, signed in with a session that took the step by text. */
async function memberWithPhone(options: TestUserOptions = {}) {
  const phone = uniquePhone();
  const { account, token } = await signedIn({ ...options, mfaPhone: phone });
  expect((await api.call('POST', '/api/v1/mfa/send-otp', { token })).status).toBe(200);
  const text = (await api.mailTo(phone)).at(-1);
  if (!text) throw new Error(`No text to ${phone}.`);
  const verified = await api.call('POST', '/api/v1/mfa/verify', {
    token,
    body: { otp: codeFromText(text.textBody) },
  });
  expect(verified.status).toBe(200);
  const mfaToken = verified.headers.get('mfa-token') ?? '';
  return { account, token, mfaToken, session: { token, mfaToken } satisfies Session };
}

async function registrationOptions(
  session: Session,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const response = await api.call('POST', '/api/v1/mfa/passkeys/registration-options', {
    ...session,
    body: {},
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: PublicKeyCredentialCreationOptionsJSON }).options;
}

/** POST /mfa/passkeys; the session then holds the mfa token of the answer, if any. */
async function postPasskey(
  session: Session,
  credential: RegistrationResponseJSON,
  more: { name?: string; remember_device?: boolean } = {},
): Promise<Response> {
  const response = await api.call('POST', '/api/v1/mfa/passkeys', {
    ...session,
    body: { name: 'MacBook Touch ID', credential, ...more },
  });
  session.mfaToken = response.headers.get('mfa-token') ?? session.mfaToken;
  return response;
}

/** Asks for options, has `authenticator` make a passkey, and sends it: the API's answer. */
async function addPasskey(
  session: Session,
  authenticator: SoftwareAuthenticator = createSoftwareAuthenticator(),
  options: { name?: string; flags?: RegistrationFlags } = {},
): Promise<Response> {
  const creation = await registrationOptions(session);
  const credential = authenticator.register(creation, ORIGIN, options.flags);
  return postPasskey(session, credential, options.name === undefined ? {} : { name: options.name });
}

/**
 * A member whose only factor is a first passkey; the session that added it (past its step, with
 * `token` and `mfaToken` as they were then), the authenticator holding it, and the API's answer.
 */
async function memberWithPasskey(
  options: TestUserOptions = {},
  flags: RegistrationFlags = {},
): Promise<{
  account: TestUser;
  session: Session;
  token: string;
  mfaToken: string;
  authenticator: SoftwareAuthenticator;
  added: AddedAnswer;
  credentialId: string;
}> {
  const { account, token } = await signedIn(options);
  const authenticator = createSoftwareAuthenticator();
  const session: Session = { token };
  const response = await addPasskey(session, authenticator, { flags });
  expect(response.status).toBe(201);
  const credentialId = authenticator.credentials.at(-1)?.id;
  if (credentialId === undefined) throw new Error('The authenticator kept no passkey.');
  return {
    account,
    session,
    token,
    mfaToken: session.mfaToken ?? '',
    authenticator,
    added: (await response.json()) as AddedAnswer,
    credentialId,
  };
}

async function secondStepOptions(token: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const response = await api.call('POST', '/api/v1/mfa/passkeys/authentication-options', {
    token,
    body: {},
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options;
}

function verifyPasskey(
  token: string,
  credential: AuthenticationResponseJSON,
  more: { remember_device?: boolean } = {},
): Promise<Response> {
  return api.call('POST', '/api/v1/mfa/passkeys/verify', {
    token,
    body: { credential, ...more },
  });
}

/** The step was refused: the answer, no mfa token, and the session still short of its step. */
async function expectStepRefused(response: Response, token: string): Promise<void> {
  expect(response.status).toBe(422);
  expect(await response.json()).toEqual(NOT_CHECKED);
  expect(response.headers.get('mfa-token')).toBeNull();
  expect((await api.getCurrentUser(token)).status).toBe(401);
}

async function signInOptions(): Promise<{
  options: PublicKeyCredentialRequestOptionsJSON;
  challengeToken: string;
}> {
  const response = await api.call('POST', '/api/v1/users/passkey-sign-in/options', { body: {} });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    options: PublicKeyCredentialRequestOptionsJSON;
    challenge_token: string;
  };
  return { options: body.options, challengeToken: body.challenge_token };
}

function passkeySignIn(
  challengeToken: string,
  credential: AuthenticationResponseJSON,
): Promise<Response> {
  return api.call('POST', '/api/v1/users/passkey-sign-in', {
    body: { challenge_token: challengeToken, credential },
  });
}

/** The sign-in with a passkey alone was refused, with no session given. */
async function expectSignInRefused(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(NOT_SIGNED_IN);
  expect(response.headers.get('Authorization')).toBeNull();
  expect(response.headers.get('mfa-token')).toBeNull();
}

function bearerOf(response: Response): string {
  const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1];
  if (!token) throw new Error(`No bearer token; status ${response.status}.`);
  return token;
}

async function listPasskeys(session: Session): Promise<ListedPasskey[]> {
  const response = await api.call('GET', '/api/v1/mfa/passkeys', session);
  expect(response.status).toBe(200);
  return ((await response.json()) as { passkeys: ListedPasskey[] }).passkeys;
}

function removePasskey(session: Session, id: string | number, currentPassword: string) {
  return api.call('DELETE', `/api/v1/mfa/passkeys/${String(id)}`, {
    ...session,
    body: withPassword(currentPassword),
  });
}

const mfaStatus = async (session: Session) =>
  (await (await api.call('GET', '/api/v1/mfa', session)).json()) as {
    enrolled: boolean;
    methods: string[];
  };

async function passkeysOf(userId: number) {
  return api.db.select().from(passkeys).where(eq(passkeys.userId, userId));
}

async function passkeyRow(credentialId: string) {
  const [row] = await api.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  if (!row) throw new Error(`No passkey ${credentialId}.`);
  return row;
}

async function eventKinds(userId: number): Promise<string[]> {
  const rows = await api.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id));
  return rows.map((row) => row.kind).reverse();
}

async function lastMailTo(email: string) {
  const mail = (await api.mailTo(email)).at(-1);
  if (!mail) throw new Error(`No email to ${email}.`);
  return mail;
}

/** A challenge the API never gave, in the shape of one. */
function madeUpChallenge(): string {
  return randomBytes(32).toString('base64url');
}

describe('adding a passkey', () => {
  it('adds a first passkey as the member’s second factor: the session is past its step, ten recovery codes come with it, the member is emailed', async () => {
    const { account, token } = await signedIn();
    const authenticator = createSoftwareAuthenticator();
    const creation = await registrationOptions({ token });
    expect(creation.rp.id).toBe(RP_ID);
    expect(creation.authenticatorSelection?.residentKey).toBe('required');
    expect(creation.excludeCredentials ?? []).toEqual([]);

    const response = await postPasskey({ token }, authenticator.register(creation, ORIGIN), {
      name: '  MacBook Touch ID  ',
    });

    expect(response.status).toBe(201);
    const body = (await response.json()) as AddedAnswer;
    expect(body).toEqual({
      success: true,
      passkey: {
        id: expect.anything() as unknown,
        name: 'MacBook Touch ID',
        created_at: api.clock.now().toISOString(),
        last_used_at: null,
        backed_up: false,
      },
      recovery_codes: expect.any(Array) as unknown,
    });
    expect(body.recovery_codes).toHaveLength(10);
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect(mfaToken).toMatch(TOKEN);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    expect(await mfaStatus({ token, mfaToken })).toMatchObject({
      enrolled: true,
      methods: ['passkey'],
    });
    const [row, ...others] = await passkeysOf(account.user.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      credentialId: authenticator.credentials[0]?.id,
      counter: 0,
      transports: ['internal'],
      deviceType: 'singleDevice',
      backedUp: false,
      name: 'MacBook Touch ID',
      lastUsedAt: null,
    });
    expect((await lastMailTo(account.email)).subject).toMatch(/passkey was added/i);
    expect(await eventKinds(account.user.id)).toContain('passkey_added');
  });

  it('keeps a synced passkey as backed up', async () => {
    const { account, added } = await memberWithPasskey({}, { backedUp: true });

    expect(added.passkey.backed_up).toBe(true);
    const [row] = await passkeysOf(account.user.id);
    expect(row).toMatchObject({ deviceType: 'multiDevice', backedUp: true });
  });

  it('excludes the member’s passkeys from the options, and makes no new recovery codes while some are unused', async () => {
    const { account, token, mfaToken, credentialId } = await memberWithPasskey();

    const creation = await registrationOptions({ token, mfaToken });
    const response = await postPasskey(
      { token, mfaToken },
      createSoftwareAuthenticator().register(creation, ORIGIN),
      { name: 'iPhone' },
    );

    expect(creation.excludeCredentials?.map((descriptor) => descriptor.id)).toEqual([credentialId]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as AddedAnswer;
    expect(body.recovery_codes).toBeUndefined();
    expect(await passkeysOf(account.user.id)).toHaveLength(2);
  });

  it('takes a session past its MFA step from a member with another factor: 401 for the options and for the passkey', async () => {
    const { token, mfaToken } = await memberWithPhone();
    const passwordOnly = { token };
    const creation = await registrationOptions({ token, mfaToken });
    const credential = createSoftwareAuthenticator().register(creation, ORIGIN);

    const options = await api.call('POST', '/api/v1/mfa/passkeys/registration-options', {
      ...passwordOnly,
      body: {},
    });
    const added = await postPasskey(passwordOnly, credential);

    expect(options.status).toBe(401);
    expect(await options.json()).toEqual(MFA_REQUIRED);
    expect(added.status).toBe(401);
    expect(await added.json()).toEqual(MFA_REQUIRED);
  });

  it('refuses an empty name, or one over 60 characters, under its field', async () => {
    const { account, token } = await signedIn();

    const empty = await addPasskey({ token }, undefined, { name: '   ' });
    const long = await addPasskey({ token }, undefined, { name: 'x'.repeat(61) });

    expect(empty.status).toBe(422);
    expect(await empty.json()).toEqual({ error: 'Enter a name for the passkey.', field: 'name' });
    expect(long.status).toBe(422);
    expect(await long.json()).toEqual({
      error: 'The name must be 60 characters or fewer.',
      field: 'name',
    });
    expect(await passkeysOf(account.user.id)).toEqual([]);
    const sixty = await addPasskey({ token }, undefined, { name: ` ${'x'.repeat(60)} ` });
    expect(sixty.status).toBe(201);
  });

  it('refuses a passkey made for a challenge the API never gave', async () => {
    const { account, token } = await signedIn();
    const creation = await registrationOptions({ token });
    const credential = createSoftwareAuthenticator().register(
      { ...creation, challenge: madeUpChallenge() },
      ORIGIN,
    );

    const response = await postPasskey({ token }, credential);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(NOT_ADDED);
    expect(response.headers.get('mfa-token')).toBeNull();
    expect(await passkeysOf(account.user.id)).toEqual([]);
  });

  it('refuses a passkey made for the challenge of another session of the member', async () => {
    const { account, token } = await signedIn();
    const otherSession = await api.signInToken(account);
    const creation = await registrationOptions({ token: otherSession });
    const credential = createSoftwareAuthenticator().register(creation, ORIGIN);

    const response = await postPasskey({ token }, credential);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(NOT_ADDED);
    expect(await passkeysOf(account.user.id)).toEqual([]);
  });

  it('takes one answer per challenge: a refused answer uses it up, and so does a passkey added with it', async () => {
    const { account, token } = await signedIn();
    const creation = await registrationOptions({ token });
    const refused = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(creation, 'https://portal.example.test.evil.example'),
    );
    expect(refused.status).toBe(422);
    expect(
      await api.db
        .select()
        .from(webauthnChallenges)
        .where(eq(webauthnChallenges.challenge, creation.challenge)),
    ).toEqual([]);

    const afterRefusal = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(creation, ORIGIN),
    );

    expect(afterRefusal.status).toBe(422);
    expect(await afterRefusal.json()).toEqual(NOT_ADDED);
    const again = await registrationOptions({ token });
    const first = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(again, ORIGIN),
    );
    expect(first.status).toBe(201);
    const mfaToken = first.headers.get('mfa-token') ?? '';
    const replayed = await postPasskey(
      { token, mfaToken },
      createSoftwareAuthenticator().register(again, ORIGIN),
    );
    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toEqual(NOT_ADDED);
    expect(await passkeysOf(account.user.id)).toHaveLength(1);
  });

  it('refuses a passkey sent more than 5 minutes after its challenge', async () => {
    const { account, token } = await signedIn();
    const late = await registrationOptions({ token });
    api.clock.advanceBy(CHALLENGE_LIFETIME_MS + SECOND);

    const response = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(late, ORIGIN),
    );

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(NOT_ADDED);
    expect(await passkeysOf(account.user.id)).toEqual([]);
    // A session of its own: the first one's proof of the password is older than its window now.
    const fresh = await api.signInToken(account);
    const inTime = await registrationOptions({ token: fresh });
    api.clock.advanceBy(CHALLENGE_LIFETIME_MS - SECOND);
    expect(
      (await postPasskey({ token: fresh }, createSoftwareAuthenticator().register(inTime, ORIGIN)))
        .status,
    ).toBe(201);
  });

  it('refuses a passkey made for another origin or another relying party', async () => {
    const { account, token } = await signedIn();
    const forOrigin = await registrationOptions({ token });
    const forRelyingParty = await registrationOptions({ token });

    const otherOrigin = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(forOrigin, 'https://evil.example'),
    );
    const otherRelyingParty = await postPasskey(
      { token },
      createSoftwareAuthenticator().register(
        { ...forRelyingParty, rp: { ...forRelyingParty.rp, id: 'example.test' } },
        ORIGIN,
      ),
    );

    for (const response of [otherOrigin, otherRelyingParty]) {
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(NOT_ADDED);
    }
    expect(await passkeysOf(account.user.id)).toEqual([]);
    expect(await eventKinds(account.user.id)).not.toContain('passkey_added');
  });

  it('keeps at most 10 passkeys per member', async () => {
    const { account, session } = await memberWithPasskey();
    for (let count = 2; count <= 10; count += 1) {
      expect((await addPasskey(session)).status).toBe(201);
    }

    const eleventh = await addPasskey(session);

    expect(eleventh.status).toBe(422);
    expect(await eleventh.json()).toEqual(TOO_MANY);
    expect(await passkeysOf(account.user.id)).toHaveLength(10);
  });
});

describe('GET /api/v1/mfa/passkeys', () => {
  it('lists the member’s own passkeys, newest first', async () => {
    const { account, session, added } = await memberWithPasskey();
    api.clock.advanceBy(MINUTE);
    const second = await addPasskey(session, undefined, {
      name: 'YubiKey',
      flags: { backedUp: true },
    });
    expect(second.status).toBe(201);
    await memberWithPasskey();

    const listed = await listPasskeys(session);

    expect(listed).toEqual([
      {
        id: expect.anything() as unknown,
        name: 'YubiKey',
        created_at: api.clock.now().toISOString(),
        last_used_at: null,
        backed_up: true,
      },
      added.passkey,
    ]);
    expect(await passkeysOf(account.user.id)).toHaveLength(2);
  });

  it('takes a session past its MFA step', async () => {
    const { account } = await memberWithPasskey();
    const passwordOnly = await api.signInToken(account);

    const response = await api.call('GET', '/api/v1/mfa/passkeys', { token: passwordOnly });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
  });
});

describe('the MFA step with a passkey', () => {
  it('takes the step of a new session, and keeps the counter, the backup state, the last use and the factor used', async () => {
    const { account, authenticator, credentialId } = await memberWithPasskey(
      {},
      { backupEligible: true },
    );
    const token = await api.signInToken(account);
    expect((await api.getCurrentUser(token)).status).toBe(401);
    const request = await secondStepOptions(token);
    expect(request.allowCredentials?.map((descriptor) => descriptor.id)).toEqual([credentialId]);
    api.clock.advanceBy(MINUTE);
    // The passkey has been synced since it was added.
    const held = authenticator.credentials[0];
    if (held) held.backedUp = true;

    const response = await verifyPasskey(token, authenticator.authenticate(request, ORIGIN));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect(mfaToken).toMatch(TOKEN);
    expect((await api.getCurrentUser(token, mfaToken)).status).toBe(200);
    expect(await passkeyRow(credentialId)).toMatchObject({
      counter: 1,
      backedUp: true,
      lastUsedAt: api.clock.now(),
    });
    expect((await reloadUser(api.db, account.user.id)).lastSecondFactor).toBe('passkey');
    expect((await listPasskeys({ token, mfaToken }))[0]?.last_used_at).toBe(
      api.clock.now().toISOString(),
    );
  });

  it('remembers the browser when asked', async () => {
    const { account, authenticator } = await memberWithPasskey();
    const token = await api.signInToken(account);

    const response = await verifyPasskey(
      token,
      authenticator.authenticate(await secondStepOptions(token), ORIGIN),
      { remember_device: true },
    );

    expect(response.status).toBe(200);
    const body = (await response.json()) as StepAnswer;
    expect(body.device_token).toMatch(TOKEN);
    expect(body.device_token_expires_at).toEqual(expect.any(String));
  });

  it('offers the passkey first, unless the member last took the step another way', async () => {
    const { account, session } = await memberWithPhone();
    expect((await addPasskey(session)).status).toBe(201);
    const setLast = (factor: 'sms' | 'passkey' | null) =>
      api.db.update(users).set({ lastSecondFactor: factor }).where(eq(users.id, account.user.id));

    await setLast(null);
    expect((await mfaStatus(session)).methods).toEqual(['passkey', 'sms']);
    await setLast('sms');
    expect((await mfaStatus(session)).methods).toEqual(['sms', 'passkey']);
  });

  it('answers 422 to a member without a passkey', async () => {
    const { token } = await memberWithPhone();

    const response = await api.call('POST', '/api/v1/mfa/passkeys/authentication-options', {
      token,
      body: {},
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(NO_PASSKEY);
  });

  it('takes one answer per challenge: an answer taken, or refused, is not taken again', async () => {
    const { account, authenticator } = await memberWithPasskey();
    const token = await api.signInToken(account);
    const request = await secondStepOptions(token);
    const answer = authenticator.authenticate(request, ORIGIN);
    expect((await verifyPasskey(token, answer)).status).toBe(200);
    const later = await api.signInToken(account);

    await expectStepRefused(await verifyPasskey(later, answer), later);
    const refusedRequest = await secondStepOptions(later);
    await expectStepRefused(
      await verifyPasskey(
        later,
        authenticator.authenticate(refusedRequest, 'https://evil.example'),
      ),
      later,
    );
    await expectStepRefused(
      await verifyPasskey(later, authenticator.authenticate(refusedRequest, ORIGIN)),
      later,
    );
  });

  it('refuses an answer to the challenge of another session of the member', async () => {
    const { account, authenticator } = await memberWithPasskey();
    const token = await api.signInToken(account);
    const otherSession = await api.signInToken(account);
    const request = await secondStepOptions(otherSession);

    const response = await verifyPasskey(token, authenticator.authenticate(request, ORIGIN));

    await expectStepRefused(response, token);
  });

  it('refuses another member’s passkey, though it signs the member’s own challenge', async () => {
    const victim = await memberWithPasskey();
    const attacker = await memberWithPasskey();
    // The attacker knows the victim's password, and holds a passkey of their own account.
    const token = await api.signInToken(victim.account);
    const request = await secondStepOptions(token);

    const response = await verifyPasskey(
      token,
      attacker.authenticator.authenticate(request, ORIGIN, {
        credentialId: attacker.credentialId,
      }),
    );

    await expectStepRefused(response, token);
    expect((await passkeyRow(attacker.credentialId)).lastUsedAt).toBeNull();
  });

  it('refuses a counter that does not go up once the passkey keeps one', async () => {
    const { account, authenticator, credentialId } = await memberWithPasskey();
    const first = await api.signInToken(account);
    expect(
      (
        await verifyPasskey(
          first,
          authenticator.authenticate(await secondStepOptions(first), ORIGIN),
        )
      ).status,
    ).toBe(200);
    const token = await api.signInToken(account);

    const response = await verifyPasskey(
      token,
      authenticator.authenticate(await secondStepOptions(token), ORIGIN, { counter: 1 }),
    );

    await expectStepRefused(response, token);
    expect((await passkeyRow(credentialId)).counter).toBe(1);
  });

  it('goes on taking a passkey that keeps no counter (always 0), as synced ones do', async () => {
    const { account, authenticator } = await memberWithPasskey({}, { backedUp: true });

    for (let use = 0; use < 2; use += 1) {
      const token = await api.signInToken(account);
      const response = await verifyPasskey(
        token,
        authenticator.authenticate(await secondStepOptions(token), ORIGIN, { counter: 0 }),
      );
      expect(response.status).toBe(200);
    }
  });

  it('refuses an answer sent more than 5 minutes after its challenge', async () => {
    const { account, authenticator } = await memberWithPasskey();
    const token = await api.signInToken(account);
    const request = await secondStepOptions(token);
    api.clock.advanceBy(CHALLENGE_LIFETIME_MS + SECOND);

    const response = await verifyPasskey(token, authenticator.authenticate(request, ORIGIN));

    await expectStepRefused(response, token);
  });

  it('refuses an answer from another origin, for another relying party, or with a bad signature', async () => {
    const { account, authenticator } = await memberWithPasskey();
    const token = await api.signInToken(account);
    const signedElsewhere = authenticator.authenticate(
      await secondStepOptions(token),
      'https://evil.example',
    );
    const otherRelyingParty = authenticator.authenticate(await secondStepOptions(token), ORIGIN, {
      rpId: 'example.test',
    });
    const request = await secondStepOptions(token);
    const signed = authenticator.authenticate(request, ORIGIN);
    const forged: AuthenticationResponseJSON = {
      ...signed,
      // Another answer's signature over this answer's data: right key, wrong bytes.
      response: {
        ...signed.response,
        signature: authenticator.authenticate(request, ORIGIN).response.signature,
      },
    };

    for (const answer of [signedElsewhere, otherRelyingParty, forged]) {
      await expectStepRefused(await verifyPasskey(token, answer), token);
    }
  });
});

describe('signing in with a passkey alone', () => {
  it('signs the member in past both steps, with no password, and records it', async () => {
    const { account, authenticator, credentialId } = await memberWithPasskey();
    const { options, challengeToken } = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe(RP_ID);
    expect(challengeToken).toEqual(expect.any(String));
    api.clock.advanceBy(MINUTE);

    const response = await passkeySignIn(
      challengeToken,
      authenticator.authenticate(options, ORIGIN),
    );

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      expires_at: expect.any(String) as unknown,
      mfa_requires_verification: false,
      mfa_required: false,
    });
    const mfaToken = response.headers.get('mfa-token') ?? '';
    expect(mfaToken).toMatch(TOKEN);
    const current = await api.getCurrentUser(bearerOf(response), mfaToken);
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ email: account.email });
    expect(await passkeyRow(credentialId)).toMatchObject({
      counter: 1,
      lastUsedAt: api.clock.now(),
    });
    expect((await eventKinds(account.user.id)).at(-1)).toBe('signed_in');
  });

  it('refuses an answer sent with another browser’s challenge token', async () => {
    const { authenticator } = await memberWithPasskey();
    const victims = await signInOptions();
    const attackers = await signInOptions();

    const response = await passkeySignIn(
      attackers.challengeToken,
      authenticator.authenticate(victims.options, ORIGIN),
    );

    await expectSignInRefused(response);
  });

  it('takes one answer per challenge', async () => {
    const { authenticator } = await memberWithPasskey();
    const { options, challengeToken } = await signInOptions();
    const answer = authenticator.authenticate(options, ORIGIN);
    expect((await passkeySignIn(challengeToken, answer)).status).toBe(200);

    await expectSignInRefused(await passkeySignIn(challengeToken, answer));
    await expectSignInRefused(
      await passkeySignIn(challengeToken, authenticator.authenticate(options, ORIGIN)),
    );
  });

  it('refuses an answer sent more than 5 minutes after its challenge', async () => {
    const { authenticator } = await memberWithPasskey();
    const { options, challengeToken } = await signInOptions();
    api.clock.advanceBy(CHALLENGE_LIFETIME_MS + SECOND);

    const response = await passkeySignIn(
      challengeToken,
      authenticator.authenticate(options, ORIGIN),
    );

    await expectSignInRefused(response);
  });

  it('refuses a passkey the API does not know', async () => {
    const stranger = createSoftwareAuthenticator();
    stranger.register(
      {
        rp: { id: RP_ID, name: 'Member Concierge' },
        user: { id: randomBytes(16).toString('base64url'), name: 'x', displayName: 'x' },
        challenge: madeUpChallenge(),
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      },
      ORIGIN,
    );
    const { options, challengeToken } = await signInOptions();

    const response = await passkeySignIn(challengeToken, stranger.authenticate(options, ORIGIN));

    await expectSignInRefused(response);
  });

  it('refuses an answer without user verification, the passkey then being only something held', async () => {
    const { authenticator, credentialId } = await memberWithPasskey();
    const { options, challengeToken } = await signInOptions();

    const response = await passkeySignIn(
      challengeToken,
      authenticator.authenticate(options, ORIGIN, { userVerified: false }),
    );

    await expectSignInRefused(response);
    expect((await passkeyRow(credentialId)).lastUsedAt).toBeNull();
  });

  it('refuses a bad signature, another origin and another relying party', async () => {
    const { authenticator } = await memberWithPasskey();
    const forged = await signInOptions();
    const signed = authenticator.authenticate(forged.options, ORIGIN);
    const forgedAnswer: AuthenticationResponseJSON = {
      ...signed,
      response: {
        ...signed.response,
        signature: authenticator.authenticate(forged.options, ORIGIN).response.signature,
      },
    };
    const elsewhere = await signInOptions();
    const otherRelyingParty = await signInOptions();

    await expectSignInRefused(await passkeySignIn(forged.challengeToken, forgedAnswer));
    await expectSignInRefused(
      await passkeySignIn(
        elsewhere.challengeToken,
        authenticator.authenticate(elsewhere.options, 'https://evil.example'),
      ),
    );
    await expectSignInRefused(
      await passkeySignIn(
        otherRelyingParty.challengeToken,
        authenticator.authenticate(otherRelyingParty.options, ORIGIN, { rpId: 'example.test' }),
      ),
    );
  });

  it('keeps a locked account locked', async () => {
    const { account, authenticator } = await memberWithPasskey();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      expect(
        (await api.signIn({ email: account.email, password: 'a wrong password' })).status,
      ).toBe(401);
    }
    const { options, challengeToken } = await signInOptions();

    const response = await passkeySignIn(
      challengeToken,
      authenticator.authenticate(options, ORIGIN),
    );

    await expectSignInRefused(response);
  });
});

describe('removing a passkey', () => {
  it('removes one with the current password: it no longer signs in, the member is emailed and the change recorded', async () => {
    const { account, session, authenticator, added } = await memberWithPasskey();
    const kept = await addPasskey(session, undefined, { name: 'iPhone' });
    expect(kept.status).toBe(201);

    const response = await removePasskey(session, added.passkey.id, account.password);

    expect(response.status).toBe(204);
    expect((await listPasskeys(session)).map((passkey) => passkey.name)).toEqual(['iPhone']);
    expect((await lastMailTo(account.email)).subject).toMatch(/passkey was removed/i);
    expect((await eventKinds(account.user.id)).at(-1)).toBe('passkey_removed');
    const { options, challengeToken } = await signInOptions();
    await expectSignInRefused(
      await passkeySignIn(challengeToken, authenticator.authenticate(options, ORIGIN)),
    );
  });

  it('refuses a wrong current password under its field, and keeps the passkey', async () => {
    const { account, token, mfaToken, added } = await memberWithPasskey();

    const response = await removePasskey({ token, mfaToken }, added.passkey.id, 'not the password');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG_PASSWORD);
    expect(await passkeysOf(account.user.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown id, a malformed one, or another member’s passkey, which stays', async () => {
    const owner = await memberWithPasskey();
    const other = await memberWithPasskey();

    for (const id of [owner.added.passkey.id, '999999999', 'not-an-id']) {
      const response = await removePasskey(
        { token: other.token, mfaToken: other.mfaToken },
        id,
        other.account.password,
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_ON_ACCOUNT);
    }
    expect(await passkeysOf(owner.account.user.id)).toHaveLength(1);
    expect(await passkeysOf(other.account.user.id)).toHaveLength(1);
  });

  it('refuses to remove the last factor of a member whose company requires two-step verification', async () => {
    const { account, token, mfaToken, added } = await memberWithPasskey({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
    });

    const response = await removePasskey({ token, mfaToken }, added.passkey.id, account.password);

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(LAST_FACTOR_REQUIRED);
    expect(await passkeysOf(account.user.id)).toHaveLength(1);
  });

  it('turns two-step verification off with the member’s last passkey', async () => {
    const { account, token, mfaToken, added } = await memberWithPasskey();

    const response = await removePasskey({ token, mfaToken }, added.passkey.id, account.password);

    expect(response.status).toBe(204);
    expect(await mfaStatus({ token, mfaToken })).toMatchObject({ enrolled: false, methods: [] });
  });

  it('takes a session past its MFA step', async () => {
    const { account, added } = await memberWithPasskey();
    const passwordOnly = await api.signInToken(account);

    const response = await removePasskey(
      { token: passwordOnly },
      added.passkey.id,
      account.password,
    );

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(MFA_REQUIRED);
    expect(await passkeysOf(account.user.id)).toHaveLength(1);
  });
});

describe('passkeys end with two-step verification', () => {
  it('go when two-step verification is turned off', async () => {
    const { account, token, mfaToken, authenticator } = await memberWithPasskey();

    const response = await api.call('DELETE', '/api/v1/mfa', {
      token,
      mfaToken,
      body: withPassword(account.password),
    });

    expect(response.status).toBe(204);
    expect(await passkeysOf(account.user.id)).toEqual([]);
    const { options, challengeToken } = await signInOptions();
    await expectSignInRefused(
      await passkeySignIn(challengeToken, authenticator.authenticate(options, ORIGIN)),
    );
  });

  it('stay, with two-step verification, when the phone is removed', async () => {
    const { account, session } = await memberWithPhone({
      companyName: 'Northwind Secure',
      companyRequiresMfa: true,
    });
    expect((await addPasskey(session)).status).toBe(201);

    const response = await api.call('DELETE', '/api/v1/mfa/phone', {
      ...session,
      body: withPassword(account.password),
    });

    expect(response.status).toBe(204);
    expect(await passkeysOf(account.user.id)).toHaveLength(1);
    expect(await mfaStatus(session)).toMatchObject({
      enrolled: true,
      methods: ['passkey'],
    });
  });
});

describe('the data export', () => {
  it('lists the passkeys by name and use, without their credential or public key', async () => {
    const { account, token, mfaToken, credentialId } = await memberWithPasskey();
    const [row] = await passkeysOf(account.user.id);

    const response = await api.call('GET', '/api/v1/users/current/export', { token, mfaToken });

    expect(response.status).toBe(200);
    const text = await response.text();
    expect((JSON.parse(text) as { passkeys: unknown }).passkeys).toEqual([
      {
        name: row?.name,
        added_at: row?.createdAt.toISOString(),
        last_used_at: null,
        backed_up: false,
      },
    ]);
    expect(text).not.toContain(credentialId);
    expect(text).not.toContain(row?.publicKey ?? 'no row');
  });
});

describe('limits on passkey ceremonies', () => {
  /** An answer of the right shape that no passkey made: refused (401), but counted. */
  const wellFormedAnswer = {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  };

  it('answers 429 to the 61st sign-in with a passkey alone from one address in 15 minutes, options and answers counted together', async () => {
    const clientAddress = `198.51.100.${randomInt(1, 255)}`;
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const path =
        attempt % 2 === 0
          ? '/api/v1/users/passkey-sign-in/options'
          : '/api/v1/users/passkey-sign-in';
      const body = attempt % 2 === 0 ? {} : { challenge_token: 'x', credential: wellFormedAnswer };
      const response = await api.call('POST', path, { body, clientAddress });
      expect(response.status).not.toBe(429);
    }

    const refused = await api.call('POST', '/api/v1/users/passkey-sign-in/options', {
      body: {},
      clientAddress,
    });

    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    const elsewhere = await api.call('POST', '/api/v1/users/passkey-sign-in/options', { body: {} });
    expect(elsewhere.status).toBe(200);
  });

  it('answers 429 to a member’s 31st passkey ceremony in an hour, registration and step together', async () => {
    const { session } = await memberWithPhone();
    for (let ceremony = 0; ceremony < 30; ceremony += 1) {
      const path =
        ceremony % 2 === 0
          ? '/api/v1/mfa/passkeys/registration-options'
          : '/api/v1/mfa/passkeys/authentication-options';
      const response = await api.call('POST', path, { ...session, body: {} });
      expect(response.status).not.toBe(429);
    }

    const refused = await api.call('POST', '/api/v1/mfa/passkeys/registration-options', {
      ...session,
      body: {},
    });

    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});
