import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type Session } from '../../db/schema/index.ts';
import { forgetRememberedDevices } from './remembered-devices.ts';
import { revokeAllSessions, revokeOtherSessions } from './sessions.ts';

/**
 * A change to how the account is signed in to. Each renews the member's credential stamp, which
 * voids every reset, unlock and email-change link mailed before it (account-tokens.ts), and ends
 * what {@link CREDENTIAL_EVENT_ENDINGS} says. docs/SECURITY.md ("Credential events") is this
 * table in words, and tests/api/attacks-credential-events.test.ts tries it row by row.
 */
type CredentialEvent =
  | 'password_reset'
  | 'password_changed'
  | 'email_changed'
  | 'factor_added'
  | 'factor_removed'
  | 'last_factor_removed'
  | 'two_step_turned_off';

interface CredentialEventEndings {
  /** `others` keeps the session that made the change. */
  readonly sessions: 'all' | 'others' | 'none';
  readonly rememberedDevices: boolean;
}

const CREDENTIAL_EVENT_ENDINGS: Readonly<Record<CredentialEvent, CredentialEventEndings>> = {
  // The link proves the address, not whoever held the password: everyone starts over.
  password_reset: { sessions: 'all', rememberedDevices: true },
  password_changed: { sessions: 'others', rememberedDevices: true },
  email_changed: { sessions: 'none', rememberedDevices: false },
  factor_added: { sessions: 'none', rememberedDevices: false },
  factor_removed: { sessions: 'none', rememberedDevices: false },
  // With no step left a remembered device skips nothing now, and would skip a factor added later.
  last_factor_removed: { sessions: 'none', rememberedDevices: true },
  two_step_turned_off: { sessions: 'none', rememberedDevices: true },
};

/**
 * Records that the member's credentials changed, in the transaction of the change: the stamp
 * renewed, and the sessions and remembered devices the event ends, ended. `sessionId` is the
 * session that made the change, kept when the event ends only the others.
 */
export async function credentialsChanged(
  transaction: Database,
  event: CredentialEvent,
  { userId, sessionId, now }: { userId: number; sessionId?: Session['id']; now: Date },
): Promise<void> {
  await transaction
    .update(users)
    .set({ credentialStamp: sql`${users.credentialStamp} + 1` })
    .where(eq(users.id, userId));
  const endings = CREDENTIAL_EVENT_ENDINGS[event];
  if (endings.sessions === 'all') await revokeAllSessions(transaction, userId, now);
  if (endings.sessions === 'others') {
    if (sessionId === undefined) throw new Error(`${event} needs the session that made it.`);
    await revokeOtherSessions(transaction, userId, sessionId, now);
  }
  if (endings.rememberedDevices) await forgetRememberedDevices(transaction, userId);
}
