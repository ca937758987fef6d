import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Database } from '../../db/client.ts';
import { credentialsChanged } from '../sign-in/credential-events.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { enqueueEmail, type EmailContent } from '../messages/outbox.ts';
import { issueRecoveryCodesIfNone } from './recovery-code-store.ts';

/**
 * What follows an authenticator app or a passkey stored for a member, in the same transaction: the
 * first set of recovery codes if the member has none, the Activity entry, the credential event
 * (which voids the links mailed before) and the email that tells the member. Resolves to the new
 * recovery codes, shown once, or undefined.
 */
export async function strongFactorAdded(
  transaction: Database,
  added: {
    user: { id: number; email: string };
    kind: 'authenticator_app_added' | 'passkey_added';
    email: EmailContent;
    origin: RequestOrigin;
    now: Date;
  },
): Promise<string[] | undefined> {
  const { user, kind, email, origin, now } = added;
  const recoveryCodes = await issueRecoveryCodesIfNone(transaction, user.id, now);
  await recordSecurityEvent(transaction, { userId: user.id, kind, origin, at: now });
  await credentialsChanged(transaction, 'factor_added', { userId: user.id, now });
  await enqueueEmail(transaction, user.email, email, now);
  return recoveryCodes;
}
