import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  passkeys,
  users,
  webauthnChallenges,
  type Passkey,
  type User,
  type WebauthnChallengePurpose,
} from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { passkeyAddedEmail } from '../messages/account-emails.ts';
import { MINUTE, type Clock } from '../../../platform/clock.ts';
import { isLocked } from '../sign-in/lockout.ts';
import { completeSecondStep, type CompletedStep, type MfaRequestContext } from './step.ts';
import { lockedUser } from '../member-factors.ts';
import {
  describePasskey,
  PASSKEYS_PER_MEMBER,
  passkeysOf,
  type PasskeyView,
} from './passkey-store.ts';
import { strongFactorAdded } from './strong-factor-added.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import {
  createSession,
  deleteEndedSessions,
  type IssuedSession,
  markSessionVerified,
} from '../sign-in/sessions.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';

/**
 * Passkeys (WebAuthn, docs/PRODUCT.md §11.2, §12): added from the account area, taken as the
 * second step, or signing in alone, where the device's own lock (user verification) is the second
 * factor. The API makes every challenge, keeps it for {@link CHALLENGE_LIFETIME_MS}, and spends it
 * on the first answer that names it, right or wrong, and only where it was given: the session
 * that asked for it, or, before any session, the browser holding the token given with it.
 */

/** How long a ceremony's challenge can be answered: the browser's own timeout, too. */
export const CHALLENGE_LIFETIME_MS = 5 * MINUTE;

/** Who the passkeys are for: the site's host name, its name in the browser's dialog, its origin. */
interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/**
 * The relying party of the portal at `publicOrigin`. Browsers refuse an IP address as a relying
 * party, so a loopback address (the default `http://127.0.0.1:4321`) is served as `localhost` on
 * the same port: passkeys work when the portal is opened at `http://localhost:4321`.
 */
export function relyingParty(publicOrigin: string, name: string): RelyingParty {
  const url = new URL(publicOrigin);
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) url.hostname = 'localhost';
  return { id: url.hostname, name, origin: url.origin };
}

/**
 * The member's WebAuthn user handle: the bytes of their external id, which the API already shows,
 * and never their email. The same for every passkey, so an authenticator keeps one per account.
 */
function userHandle(user: Pick<User, 'externalId'>): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(user.externalId.replaceAll('-', ''), 'hex'));
}

interface ChallengeBinding {
  purpose: WebauthnChallengePurpose;
  sessionId?: number;
  userId?: number;
  tokenHash?: string;
}

/**
 * Keeps a new challenge. Those past their time go first (all of them: the table holds only
 * minutes of ceremonies), and so does an earlier challenge of the same session and purpose: a
 * session answers only its latest ceremony.
 */
async function keepChallenge(
  transaction: Database,
  challenge: string,
  binding: ChallengeBinding,
  now: Date,
): Promise<void> {
  await transaction.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
  if (binding.sessionId !== undefined) {
    await transaction
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.sessionId, binding.sessionId),
          eq(webauthnChallenges.purpose, binding.purpose),
        ),
      );
  }
  await transaction.insert(webauthnChallenges).values({
    challenge,
    purpose: binding.purpose,
    sessionId: binding.sessionId ?? null,
    userId: binding.userId ?? null,
    tokenHash: binding.tokenHash ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS),
  });
}

/**
 * Spends the challenge the browser signed, if it was given for this purpose and binding and has
 * not run out: it is deleted, so no second answer can use it. Resolves to the challenge, or
 * undefined when there is none to spend (unreadable client data included).
 */
async function spendChallenge(
  transaction: Database,
  clientDataJSON: string,
  binding: ChallengeBinding,
  now: Date,
): Promise<string | undefined> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    return undefined;
  }
  if (typeof challenge !== 'string') return undefined;
  const spent = await transaction
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, binding.purpose),
        binding.sessionId === undefined
          ? isNull(webauthnChallenges.sessionId)
          : eq(webauthnChallenges.sessionId, binding.sessionId),
        binding.tokenHash === undefined
          ? isNull(webauthnChallenges.tokenHash)
          : eq(webauthnChallenges.tokenHash, binding.tokenHash),
      ),
    )
    .returning({ expiresAt: webauthnChallenges.expiresAt });
  const [row] = spent;
  return row !== undefined && row.expiresAt > now ? challenge : undefined;
}

/**
 * POST /mfa/passkeys/registration-options: what the browser needs to make a passkey for the
 * member, discoverable (so it can sign in alone) and never a second one on an authenticator that
 * holds one of theirs already.
 */
export async function registrationOptions(
  database: Database,
  clock: Clock,
  party: RelyingParty,
  user: Pick<User, 'id' | 'externalId' | 'email' | 'name' | 'lastName'>,
  sessionId: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const now = clock.now();
  const owned = await passkeysOf(database, user.id);
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.email,
    userDisplayName: `${user.name} ${user.lastName}`.trim(),
    userID: userHandle(user),
    attestationType: 'none',
    timeout: CHALLENGE_LIFETIME_MS,
    excludeCredentials: owned.map(credentialDescriptor),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await database.transaction((transaction) =>
    keepChallenge(
      transaction,
      options.challenge,
      { purpose: 'registration', sessionId, userId: user.id },
      now,
    ),
  );
  return options;
}

function credentialDescriptor(passkey: Passkey) {
  return { id: passkey.credentialId, transports: passkey.transports };
}

interface AddPasskeyInput {
  name: string;
  credential: RegistrationResponseJSON;
  party: RelyingParty;
  publicOrigin: string;
  origin: RequestOrigin;
}

type AddPasskeyResult =
  | ({
      added: true;
      passkey: PasskeyView;
      /** A first set of recovery codes, made with the passkey; undefined when the member has some. */
      recoveryCodes: string[] | undefined;
    } & CompletedStep)
  | { added: false; reason: 'not_verified' | 'too_many' };

/**
 * POST /mfa/passkeys: keeps the passkey the browser made for the challenge this session was
 * given, under the member's name for it; recorded and emailed. As with an authenticator app, the
 * session has just proved the factor, so it is past its MFA step, and a member without unused
 * recovery codes gets a first set.
 */
export function addPasskey(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: AddPasskeyInput,
): Promise<AddPasskeyResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<AddPasskeyResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user) return { added: false, reason: 'not_verified' };
    const challenge = await spendChallenge(
      transaction,
      input.credential.response.clientDataJSON,
      { purpose: 'registration', sessionId: context.sessionId },
      now,
    );
    if (challenge === undefined) return { added: false, reason: 'not_verified' };
    if (user.passkeyCount >= PASSKEYS_PER_MEMBER) return { added: false, reason: 'too_many' };
    const verification = await verifyRegistrationResponse({
      response: input.credential,
      expectedChallenge: challenge,
      expectedOrigin: input.party.origin,
      expectedRPID: input.party.id,
      requireUserVerification: false,
    }).catch(() => undefined);
    if (!verification?.verified) return { added: false, reason: 'not_verified' };
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    const [taken] = await transaction
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credentialId, credential.id));
    if (taken) return { added: false, reason: 'not_verified' };

    const [passkey] = await transaction
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name: input.name,
        createdAt: now,
      })
      .returning();
    if (!passkey) throw new Error('The passkey was not stored.');
    await transaction
      .update(users)
      .set({
        passkeyCount: sql`${users.passkeyCount} + 1`,
        lastSecondFactor: 'passkey',
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    const recoveryCodes = await strongFactorAdded(transaction, {
      user,
      kind: 'passkey_added',
      email: passkeyAddedEmail(input.publicOrigin, input.name),
      origin: input.origin,
      now,
    });
    const completed = await completeSecondStep(transaction, context, now, input.origin);
    return { added: true, passkey: describePasskey(passkey), recoveryCodes, ...completed };
  });
}

/**
 * POST /mfa/passkeys/authentication-options: a challenge for this session's step, offering the
 * member's own passkeys. Undefined when the member has none.
 */
export async function secondStepOptions(
  database: Database,
  clock: Clock,
  party: RelyingParty,
  context: Pick<MfaRequestContext, 'userId' | 'sessionId'>,
): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  const owned = await passkeysOf(database, context.userId);
  if (owned.length === 0) return undefined;
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    allowCredentials: owned.map(credentialDescriptor),
    userVerification: 'preferred',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await database.transaction((transaction) =>
    keepChallenge(
      transaction,
      options.challenge,
      { purpose: 'second_step', sessionId: context.sessionId, userId: context.userId },
      clock.now(),
    ),
  );
  return options;
}

/**
 * Checks a passkey's answer to a spent challenge: the credential's signature, its origin and
 * relying party, user verification when asked, and a signature counter that moved forward (one
 * that did not may be a cloned authenticator). On success the passkey's counter, backup state
 * and last use are written, in the caller's transaction.
 */
async function acceptAssertion(
  transaction: Database,
  passkey: Passkey,
  credential: AuthenticationResponseJSON,
  expected: { challenge: string; party: RelyingParty; userVerification: boolean; now: Date },
): Promise<boolean> {
  const verification = await verifyAuthenticationResponse({
    response: credential,
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.party.origin,
    expectedRPID: expected.party.id,
    requireUserVerification: expected.userVerification,
    credential: {
      id: passkey.credentialId,
      publicKey: isoBase64URL.toBuffer(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports,
    },
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  const { newCounter, credentialBackedUp, credentialDeviceType } = verification.authenticationInfo;
  await transaction
    .update(passkeys)
    .set({
      counter: newCounter,
      backedUp: credentialBackedUp,
      deviceType: credentialDeviceType,
      lastUsedAt: expected.now,
    })
    .where(eq(passkeys.id, passkey.id));
  return true;
}

async function passkeyByCredential(
  transaction: Database,
  credentialId: string,
): Promise<Passkey | undefined> {
  const [passkey] = await transaction
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, credentialId))
    .limit(1);
  return passkey;
}

type PasskeyStepResult = ({ verified: true } & CompletedStep) | { verified: false };

/**
 * POST /mfa/passkeys/verify: one of the member's passkeys answers this session's challenge and
 * takes the MFA step. A passkey cannot be guessed as a code can, so a refusal is not counted
 * toward the account's cap on wrong codes, and paused codes do not stop it.
 */
export function verifyPasskeyStep(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: { credential: AuthenticationResponseJSON; party: RelyingParty; origin: RequestOrigin },
): Promise<PasskeyStepResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<PasskeyStepResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user) return { verified: false };
    const challenge = await spendChallenge(
      transaction,
      input.credential.response.clientDataJSON,
      { purpose: 'second_step', sessionId: context.sessionId },
      now,
    );
    if (challenge === undefined) return { verified: false };
    const passkey = await passkeyByCredential(transaction, input.credential.id);
    if (passkey?.userId !== user.id) return { verified: false };
    const expected = { challenge, party: input.party, userVerification: false, now };
    if (!(await acceptAssertion(transaction, passkey, input.credential, expected))) {
      return { verified: false };
    }
    await transaction
      .update(users)
      .set({ lastSecondFactor: 'passkey', updatedAt: now })
      .where(eq(users.id, user.id));
    return {
      verified: true,
      ...(await completeSecondStep(transaction, context, now, input.origin)),
    };
  });
}

/** What a browser is given to sign in with a passkey alone. */
interface PasskeySignInOptions {
  options: PublicKeyCredentialRequestOptionsJSON;
  /** Kept by the browser's server (never a script) and sent back with the answer. */
  challengeToken: string;
}

/**
 * POST /users/passkey-sign-in/options: a challenge any of the site's passkeys may answer (the
 * browser offers the member theirs), with user verification required: the device's lock is the
 * second factor. Its token ties it to the browser that asked.
 */
export async function passkeySignInOptions(
  database: Database,
  clock: Clock,
  party: RelyingParty,
): Promise<PasskeySignInOptions> {
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  const challengeToken = generateToken();
  await database.transaction((transaction) =>
    keepChallenge(
      transaction,
      options.challenge,
      { purpose: 'sign_in', tokenHash: hashToken(challengeToken) },
      clock.now(),
    ),
  );
  return { options, challengeToken };
}

type PasskeySignInResult =
  { signedIn: true; user: User; issued: IssuedSession; mfaToken: string } | { signedIn: false };

/**
 * POST /users/passkey-sign-in: a passkey, verified by its device's lock, answers the challenge
 * given with this token; a new session starts past its MFA step (docs/PRODUCT.md §12). Refused
 * alike whatever went wrong, an account locked by wrong passwords included: the lock stands until
 * it lifts or the member follows the unlock link.
 */
export function signInWithPasskey(
  database: Database,
  clock: Clock,
  input: {
    challengeToken: string;
    credential: AuthenticationResponseJSON;
    party: RelyingParty;
    origin: RequestOrigin;
  },
): Promise<PasskeySignInResult> {
  const now = clock.now();
  const refused = { signedIn: false } as const;
  if (!looksLikeToken(input.challengeToken)) return Promise.resolve(refused);
  return database.transaction(async (transaction): Promise<PasskeySignInResult> => {
    const challenge = await spendChallenge(
      transaction,
      input.credential.response.clientDataJSON,
      { purpose: 'sign_in', tokenHash: hashToken(input.challengeToken) },
      now,
    );
    if (challenge === undefined) return refused;
    const found = await passkeyByCredential(transaction, input.credential.id);
    const user = found && (await lockedUser(transaction, found.userId));
    if (!found || !user || isLocked(user, now)) return refused;
    const { userHandle: handle } = input.credential.response;
    if (handle !== undefined && handle !== isoBase64URL.fromBuffer(userHandle(user))) {
      return refused;
    }
    const expected = { challenge, party: input.party, userVerification: true, now };
    if (!(await acceptAssertion(transaction, found, input.credential, expected))) return refused;

    await transaction
      .update(users)
      .set({ lastSecondFactor: 'passkey', updatedAt: now })
      .where(eq(users.id, user.id));
    await deleteEndedSessions(transaction, user.id, now);
    const issued = await createSession(transaction, user.id, now, input.origin);
    const mfaToken = await markSessionVerified(transaction, { sessionId: issued.session.id }, now);
    await recordSecurityEvent(transaction, {
      userId: user.id,
      kind: 'signed_in',
      origin: input.origin,
      at: now,
    });
    return { signedIn: true, user, issued, mfaToken };
  });
}

/** GET /mfa/passkeys: the member's passkeys as the account area lists them, newest first. */
export async function listPasskeys(database: Database, userId: number): Promise<PasskeyView[]> {
  return (await passkeysOf(database, userId)).map(describePasskey);
}
