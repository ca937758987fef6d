import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { RequestOrigin } from '../http/client-address.ts';
import { users, type User } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { registerSignInAttempt } from './lockout.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { createSession, deleteEndedSessions, type IssuedSession } from './sessions.ts';
import { withMinimumDuration } from './timing.ts';
import { emailUnlockLink } from './unlock.ts';

export type SignInResult =
  | { signedIn: true; user: User; issued: IssuedSession }
  | {
      signedIn: false;
      /** Set when this failure locked the account (see {@link registerSignInAttempt}). */
      newlyLockedUser: User | null;
    };

/**
 * No sign-in answers sooner than this after it started. One argon2 computation takes 30 to 40 ms
 * here and the lockout transaction a few more, which only known emails pay; waiting out the same
 * floor for every answer leaves no difference to measure (docs/PRODUCT.md §11).
 */
export const SIGN_IN_MINIMUM_DURATION_MS = 150;

/**
 * Checks an email and password. The failure that locks the account also emails the member an
 * unlock link (built from `publicOrigin`), in the same transaction as the lock.
 *
 * Unknown email, wrong password and locked account all come back as the same `signedIn: false`
 * after one argon2 computation each, and every answer waits out
 * {@link SIGN_IN_MINIMUM_DURATION_MS}, so neither the answer nor its timing tells which case it
 * was.
 */
export function signIn(
  database: Database,
  clock: Clock,
  credentials: { email: string; password: string },
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
  credentials: { email: string; password: string },
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
    if (!verdict.accepted) {
      if (!verdict.newlyLocked) return { signedIn: false, newlyLockedUser: null };
      // In the transaction that set the lock: exactly one unlock email per lock, however many
      // wrong guesses race for the tenth place.
      await emailUnlockLink(transaction, user, now, publicOrigin);
      return { signedIn: false, newlyLockedUser: user };
    }
    await deleteEndedSessions(transaction, user.id, now);
    const issued = await createSession(transaction, user.id, now, origin);
    return { signedIn: true, user, issued };
  });
}
