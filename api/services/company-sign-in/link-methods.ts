import { and, eq, exists, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, users } from '../../db/schema/index.ts';
import { hasEnrolledMfa, secondFactors } from '../member-factors.ts';

/**
 * The proofs besides the password that link an account to a company's sign-in: a code of the
 * account's authenticator app, or one of its recovery codes (docs/PRODUCT.md §15). A texted code
 * and a passkey are not among them (docs/decisions/071-company-sign-in.md).
 */
export type LinkMethod = 'app' | 'recovery_code';

/**
 * Which of those proofs the account with this address has, in the order the link page offers
 * them: the app, whose codes the member has at hand, then the recovery codes, the way out. One
 * statement, read while the page renders.
 */
export async function linkMethodsOf(database: Database, email: string): Promise<LinkMethod[]> {
  const unusedRecoveryCode = database
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, users.id), isNull(recoveryCodes.usedAt)));
  const [account] = await database
    .select({
      mfaPhone: users.mfaPhone,
      totpConfirmedAt: users.totpConfirmedAt,
      passkeyCount: users.passkeyCount,
      lastSecondFactor: users.lastSecondFactor,
      hasRecoveryCode: exists(unusedRecoveryCode).mapWith(Boolean),
    })
    .from(users)
    .where(eq(users.email, email));
  if (!account) return [];
  return [
    ...(secondFactors(account).includes('app') ? (['app'] as const) : []),
    // Codes stand in for a factor and die with the last one, as at the step.
    ...(account.hasRecoveryCode && hasEnrolledMfa(account) ? (['recovery_code'] as const) : []),
  ];
}
