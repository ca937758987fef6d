import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import { HOUR, type Clock } from '../../../platform/clock.ts';
import { type FactorFields, hasEnrolledMfa } from '../member-factors.ts';

/** The offer: asking a member with no factor to add one when it is due, and "Skip for now". */

/** A member who skipped the enrollment offer is offered it again this long after. */
const MFA_OFFER_REPEAT_AFTER_MS = 30 * 24 * HOUR;

/**
 * Whether enrollment is to be offered at sign-in to a user without a second factor: when the
 * user never declined it, declined it more than 30 days ago, or belongs to a company that
 * requires MFA (then always, and it cannot be skipped).
 */
export function isEnrollmentOfferDue(
  user: FactorFields & Pick<User, 'mfaDeclinedAt'>,
  companyRequiresMfa: boolean,
  now: Date,
): boolean {
  if (hasEnrolledMfa(user)) return false;
  if (companyRequiresMfa || user.mfaDeclinedAt === null) return true;
  return now.getTime() - user.mfaDeclinedAt.getTime() > MFA_OFFER_REPEAT_AFTER_MS;
}

/**
 * The MFA flags of the sign-in answer: with an enrolled phone, this session must be verified by
 * a code (`mfa_required`); without one, enrollment is offered when it is due
 * (`mfa_requires_verification`).
 */
export function signInMfaFlags(
  user: FactorFields & Pick<User, 'mfaDeclinedAt'>,
  companyRequiresMfa: boolean,
  now: Date,
): { mfa_requires_verification: boolean; mfa_required: boolean } {
  return {
    mfa_requires_verification: isEnrollmentOfferDue(user, companyRequiresMfa, now),
    mfa_required: hasEnrolledMfa(user),
  };
}

/** POST /mfa/skip: records that the member declined the enrollment offer (for 30 days). */
export async function declineMfaEnrollment(
  database: Database,
  clock: Clock,
  userId: number,
): Promise<void> {
  const now = clock.now();
  await database
    .update(users)
    .set({ mfaDeclinedAt: now, updatedAt: now })
    .where(eq(users.id, userId));
}
