import { isIP } from 'node:net';
import {
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  passkeys,
  webauthnChallenges,
  type Passkey,
  type User,
  type WebauthnChallengePurpose,
} from '../../db/schema/index.ts';
import { MINUTE } from '../../../platform/clock.ts';

/**
 * What every passkey ceremony (WebAuthn) shares: adding a passkey (passkey-registration.ts),
 * taking the step with one (passkey-step.ts), and signing in with one alone (passkey-sign-in.ts),
 * where the device's own lock (user verification) is the second factor. The API makes every
 * challenge, keeps it for {@link CHALLENGE_LIFETIME_MS}, and spends it on the first answer that
 * names it, right or wrong, and only where it was given: the session that asked for it, or, before
 * any session, the browser holding the token given with it.
 */

/** How long a ceremony's challenge can be answered: the browser's own timeout, too. */
export const CHALLENGE_LIFETIME_MS = 5 * MINUTE;

/** Who the passkeys are for: the site's host name, its name in the browser's dialog, its origin. */
export interface RelyingParty {
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
export function userHandle(user: Pick<User, 'externalId'>): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(user.externalId.replaceAll('-', ''), 'hex'));
}

export interface ChallengeBinding {
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
export async function keepChallenge(
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
export async function spendChallenge(
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

export function credentialDescriptor(passkey: Passkey) {
  return { id: passkey.credentialId, transports: passkey.transports };
}

/**
 * Checks a passkey's answer to a spent challenge: the credential's signature, its origin and
 * relying party, user verification when asked, and a signature counter that moved forward (one
 * that did not may be a cloned authenticator). On success the passkey's counter, backup state
 * and last use are written, in the caller's transaction.
 */
export async function acceptAssertion(
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
