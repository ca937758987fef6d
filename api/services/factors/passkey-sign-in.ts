import {
  generateAuthenticationOptions,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { lockedUser } from '../member-factors.ts';
import { isLocked } from '../sign-in/lockout.ts';
import {
  createSession,
  deleteEndedSessions,
  markSessionVerified,
  type IssuedSession,
} from '../sign-in/sessions.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';
import {
  acceptAssertion,
  CHALLENGE_LIFETIME_MS,
  keepChallenge,
  spendChallenge,
  userHandle,
  type RelyingParty,
} from './passkey-ceremonies.ts';
import { passkeyByCredential } from './passkey-store.ts';

/** Signing in with a passkey alone: no password, and a session past its step at once. */

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
 * given with this token; a new session starts past its MFA step. Refused alike whatever went wrong,
 * an account locked by wrong passwords included: the lock stands until it lifts or the member
 * follows the unlock link.
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
