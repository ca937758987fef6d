import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { registerSignInAttempt } from './lockout.ts';
import { hasEnrolledMfa } from '../member-factors.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { useRememberedDevice } from './remembered-devices.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import {
  createSession,
  deleteEndedSessions,
  revokeSession,
  type IssuedSession,
  markSessionVerified,
} from './sessions.ts';
import { SIGN_IN_MINIMUM_DURATION_MS, withMinimumDuration } from './timing.ts';
import { emailUnlockLink } from './unlock.ts';

type SignInResult =
  | {
      signedIn: true;
      user: User;
      issued: IssuedSession;
      /**
       * What the device token sent with the password did: undefined when none was sent, true
       * when it was a remembered device of this member that took the MFA step.
       */
      deviceRemembered: boolean | undefined;
      /** The mfa token of the session, when a remembered device took its step. */
      mfaToken: string | undefined;
    }
  | {
      signedIn: false;
      /** Set when this failure locked the account (see {@link registerSignInAttempt}). */
      newlyLockedUser: User | null;
    };

/** What sign-in is given: the password always, and a remembered device's token if the browser has one. */
interface SignInCredentials {
  email: string;
  password: string;
  deviceToken?: string | undefined;
}

/**
 * Checks an email and password. The failure that locks the account also emails the member an
 * unlock link (built from `publicOrigin`), in the same transaction as the lock.
 *
 * A device token is looked at only once the password is accepted, so it changes nothing of a
 * refusal, its count or its timing. When it is an unexpired remembered device of this member and
 * the member has a second factor, the new session is past its MFA step in the sign-in's own
 * transaction: a failure leaves neither a verified session nor a use written down.
 *
 * Unknown email, wrong password and locked account all come back as the same `signedIn: false`
 * after one argon2 computation each, and every answer waits out
 * {@link SIGN_IN_MINIMUM_DURATION_MS}, so neither the answer nor its timing tells which case it
 * was.
 */
export function signIn(
  database: Database,
  clock: Clock,
  credentials: SignInCredentials,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<SignInResult> {
  return withMinimumDuration(SIGN_IN_MINIMUM_DURATION_MS, () =>
    checkCredentials(database, clock, credentials, publicOrigin, origin),
  );
}

async function checkCredentials(
  database: Database,
  clock: Clock,
  credentials: SignInCredentials,
  publicOrigin: string,
  origin: RequestOrigin,
): Promise<SignInResult> {
  const now = clock.now();
  const email = credentials.email.trim().toLowerCase();
  const [user] = await database.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) {
    await verifyAgainstDecoy(credentials.password);
    return { signedIn: false, newlyLockedUser: null };
  }

  // Hashing happens before the transaction: the row lock (and, on PGlite, the whole database)
  // is then held for milliseconds, not for the length of an argon2 computation.
  const passwordMatches = await verifyPassword(credentials.password, user.passwordHash);

  return database.transaction(async (transaction): Promise<SignInResult> => {
    const verdict = await registerSignInAttempt(transaction, user.id, passwordMatches, now);
    // Only a known account has events; an unknown email records nothing, and the insert's few
    // milliseconds are inside SIGN_IN_MINIMUM_DURATION_MS like the rest of this transaction.
    const event = { userId: user.id, origin, at: now };
    if (!verdict.accepted) {
      await recordSecurityEvent(transaction, { ...event, kind: 'sign_in_failed' });
      if (!verdict.newlyLocked) return { signedIn: false, newlyLockedUser: null };
      await recordSecurityEvent(transaction, { ...event, kind: 'locked' });
      // In the transaction that set the lock: exactly one unlock email per lock, however many
      // wrong guesses race for the tenth place.
      await emailUnlockLink(transaction, user, now, publicOrigin);
      return { signedIn: false, newlyLockedUser: user };
    }
    await deleteEndedSessions(transaction, user.id, now);
    const issued = await createSession(transaction, user.id, now, origin);
    await recordSecurityEvent(transaction, { ...event, kind: 'signed_in' });
    const { deviceToken } = credentials;
    if (deviceToken === undefined) {
      return { signedIn: true, user, issued, deviceRemembered: undefined, mfaToken: undefined };
    }
    // The attempt's count locked the user row: the removal of a last factor, which forgets the
    // devices, either committed before (no device is found) or waits for this sign-in to end.
    const deviceRemembered =
      hasEnrolledMfa(user) && (await useRememberedDevice(transaction, user.id, deviceToken, now));
    const mfaToken = deviceRemembered
      ? await markSessionVerified(transaction, { sessionId: issued.session.id }, now)
      : undefined;
    return { signedIn: true, user, issued, deviceRemembered, mfaToken };
  });
}

/**
 * DELETE /users/sign_out: ends the session of a token and records `signed_out` for its member, in
 * one transaction. An unknown, malformed or already ended token changes nothing and records nothing.
 */
export async function signOut(
  database: Database,
  clock: Clock,
  token: string,
  origin: RequestOrigin,
): Promise<void> {
  const now = clock.now();
  await database.transaction(async (transaction) => {
    const userId = await revokeSession(transaction, token, now);
    if (userId !== null) {
      await recordSecurityEvent(transaction, { userId, kind: 'signed_out', origin, at: now });
    }
  });
}
