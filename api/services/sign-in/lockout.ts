import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { HOUR } from '../../../platform/clock.ts';

/** Consecutive failed sign-ins that lock an account. */
export const LOCKOUT_THRESHOLD = 10;
/** How long a lock lasts before it lifts by itself. */
const LOCK_DURATION_MS = HOUR;

export interface LockoutState {
  failedAttempts: number;
  lockedAt: Date | null;
}

export const UNLOCKED_STATE: LockoutState = { failedAttempts: 0, lockedAt: null };

export function isLocked(state: LockoutState, now: Date): boolean {
  return state.lockedAt !== null && now.getTime() < state.lockedAt.getTime() + LOCK_DURATION_MS;
}

/** A lock that has run its course counts as no lock and no failures: the member starts afresh. */
export function currentLockoutState(state: LockoutState, now: Date): LockoutState {
  if (state.lockedAt !== null && !isLocked(state, now)) return UNLOCKED_STATE;
  return state;
}

/**
 * The state after one more wrong password. Attempts made while the account is locked neither
 * count nor extend the lock, so an attacker cannot keep a member locked out for longer than an
 * hour after the last lock.
 */
export function stateAfterFailedSignIn(
  state: LockoutState,
  now: Date,
): { state: LockoutState; newlyLocked: boolean } {
  if (isLocked(state, now)) return { state, newlyLocked: false };
  const failedAttempts = currentLockoutState(state, now).failedAttempts + 1;
  if (failedAttempts >= LOCKOUT_THRESHOLD) {
    return { state: { failedAttempts, lockedAt: now }, newlyLocked: true };
  }
  return { state: { failedAttempts, lockedAt: null }, newlyLocked: false };
}

type SignInAttemptVerdict =
  | { accepted: true }
  | {
      accepted: false;
      /**
       * True only for the failure that locked the account: the moment to send the member an
       * unlock link, exactly once per lock.
       */
      newlyLocked: boolean;
    };

/**
 * Applies the lockout rules to one sign-in attempt whose password has already been checked.
 * Must run inside a transaction: the user's row is locked so that concurrent attempts count
 * exactly.
 */
export async function registerSignInAttempt(
  transaction: Database,
  userId: number,
  passwordMatches: boolean,
  now: Date,
): Promise<SignInAttemptVerdict> {
  const [row] = await transaction
    .select({ failedAttempts: users.failedAttempts, lockedAt: users.lockedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!row) return { accepted: false, newlyLocked: false };
  if (isLocked(row, now)) return { accepted: false, newlyLocked: false };

  if (!passwordMatches) {
    const { state, newlyLocked } = stateAfterFailedSignIn(row, now);
    await transaction
      .update(users)
      .set({ failedAttempts: state.failedAttempts, lockedAt: state.lockedAt, updatedAt: now })
      .where(eq(users.id, userId));
    return { accepted: false, newlyLocked };
  }

  if (row.failedAttempts !== 0 || row.lockedAt !== null) {
    await transaction
      .update(users)
      .set({ ...UNLOCKED_STATE, updatedAt: now })
      .where(eq(users.id, userId));
  }
  return { accepted: true };
}
