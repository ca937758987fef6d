import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions, type Session, type User } from '../../db/schema/index.ts';
import { MINUTE, type Clock } from '../../../platform/clock.ts';
import { withCurrentPassword, type CurrentPasswordInput } from './current-password.ts';

/**
 * How long a proof of who holds a session (signing in, a second step, the password given again)
 * lets it add a way to sign in. A stolen session alone then cannot give the thief a passkey, an
 * app or a phone of their own, while a member who signed in a moment ago is not asked twice.
 */
const RECENT_PROOF_WINDOW_MS = 10 * MINUTE;

export function isRecentlyProven(session: Pick<Session, 'provenAt'>, now: Date): boolean {
  return now.getTime() - session.provenAt.getTime() < RECENT_PROOF_WINDOW_MS;
}

/** Marks the session proven now, in the transaction of the proof. */
async function markSessionProven(
  transaction: Database,
  sessionId: Session['id'],
  now: Date,
): Promise<void> {
  await transaction.update(sessions).set({ provenAt: now }).where(eq(sessions.id, sessionId));
}

type ReauthenticationResult = { proven: true } | { proven: false };

/**
 * POST /users/reauthentication: the signed-in member gives the password again, checked as every
 * other proof with the current password is (argon2 outside the transaction, counted by the lockout,
 * the lock ending every session), and the session counts as proven from now.
 */
export function reauthenticate(
  database: Database,
  clock: Clock,
  caller: { user: User; session: Session },
  input: CurrentPasswordInput,
): Promise<ReauthenticationResult> {
  return withCurrentPassword(
    database,
    clock,
    caller.user,
    input,
    async (transaction, { now, accept }): Promise<ReauthenticationResult> => {
      if (!(await accept(caller.user))) return { proven: false };
      await markSessionProven(transaction, caller.session.id, now);
      return { proven: true };
    },
  );
}
