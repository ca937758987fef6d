import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users, type SecondFactorKind, type User } from '../db/schema/index.ts';

/**
 * Which factors a member has: the fields of the user's row that say so, and what clears them.
 */

/**
 * What a member may have as a second step: passkeys, an authenticator app, a phone for texted
 * codes.
 */
export type SecondFactor = SecondFactorKind;

/** The fields of a user that say which second factors they have. */
export type FactorFields = Pick<User, 'mfaPhone' | 'totpConfirmedAt' | 'passkeyCount'>;

/**
 * The member's confirmed second factors, in the order the step offers them: the one of the last
 * successful step first, as the member most likely has it at hand; then a passkey (one touch, and
 * it cannot be phished), the app, whose codes need no network, then the phone.
 */
export function secondFactors(user: FactorFields & Pick<User, 'lastSecondFactor'>): SecondFactor[] {
  const factors: SecondFactor[] = [
    ...(user.passkeyCount > 0 ? (['passkey'] as const) : []),
    ...(user.totpConfirmedAt !== null ? (['app'] as const) : []),
    ...(user.mfaPhone !== null ? (['sms'] as const) : []),
  ];
  const last = factors.find((factor) => factor === user.lastSecondFactor);
  return last === undefined ? factors : [last, ...factors.filter((factor) => factor !== last)];
}

/** A user is enrolled in MFA once a passkey, an authenticator app or a phone is confirmed. */
export function hasEnrolledMfa(user: FactorFields): boolean {
  return user.passkeyCount > 0 || user.totpConfirmedAt !== null || user.mfaPhone !== null;
}

/** The phone gone from two-step verification, and a number being confirmed with it. */
export const NO_PHONE = { mfaPhone: null, pendingMfaPhone: null } as const;

/** The authenticator app gone, and one being set up with it. */
export const NO_APP = {
  totpSecret: null,
  totpConfirmedAt: null,
  pendingTotpSecret: null,
  totpLastStep: null,
} as const;

/**
 * Every second factor gone, for turning two-step verification off and for a reset that claims an
 * unproven account: the phone, the app, the passkeys' count and what was being set up. The
 * recovery codes and the passkeys go too, with `deleteRecoveryCodes` and
 * `deletePasskeys`: they are rows of their own.
 */
export const NO_SECOND_FACTORS = {
  ...NO_PHONE,
  ...NO_APP,
  passkeyCount: 0,
  lastSecondFactor: null,
} as const;

/** The user's row, locked until the transaction ends: every change of the second step takes it. */
export async function lockedUser(transaction: Database, userId: number): Promise<User | undefined> {
  const [user] = await transaction.select().from(users).where(eq(users.id, userId)).for('update');
  return user;
}
