import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passkeys, type Passkey } from '../../db/schema/index.ts';

/**
 * The member's passkeys as rows: their public ids, the list the account area shows, and their end
 * with two-step verification. The ceremonies that add and use them are passkey-registration.ts,
 * passkey-step.ts and passkey-sign-in.ts.
 */

/** A member keeps at most this many passkeys. */
export const PASSKEYS_PER_MEMBER = 10;

/** A passkey's name, as the member typed it, is at most this long. */
export const PASSKEY_NAME_MAX_LENGTH = 60;

/**
 * The public id of a passkey, made as a remembered device's: a SHA-256 of its credential id under
 * its own prefix, cut to 128 bits. It tells neither the row's number nor the credential.
 */
function publicPasskeyId(passkey: Pick<Passkey, 'credentialId'>): string {
  return createHash('sha256')
    .update(`passkey:${passkey.credentialId}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The shape of {@link publicPasskeyId}, checked before any query. */
const PUBLIC_PASSKEY_ID = /^[A-Za-z0-9_-]{22}$/;

/** What the account area shows of a passkey. */
export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Synced by the member's passkey provider, so it survives the loss of one device. */
  backed_up: boolean;
}

export function describePasskey(passkey: Passkey): PasskeyView {
  return {
    id: publicPasskeyId(passkey),
    name: passkey.name,
    created_at: passkey.createdAt.toISOString(),
    last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
    backed_up: passkey.backedUp,
  };
}

/** The member's passkeys, the newest first. */
export function passkeysOf(database: Database, userId: number): Promise<Passkey[]> {
  return database
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
}

/** The member's passkey of that public id, if any; a malformed id finds none without a query. */
export async function findPasskey(
  database: Database,
  userId: number,
  publicId: string,
): Promise<Passkey | undefined> {
  if (!PUBLIC_PASSKEY_ID.test(publicId)) return undefined;
  const owned = await passkeysOf(database, userId);
  return owned.find((passkey) => publicPasskeyId(passkey) === publicId);
}

/**
 * For the end of two-step verification: every passkey of the member goes with the other factors
 * (set `passkeyCount: 0` on the user row in the same transaction).
 */
export async function deletePasskeys(transaction: Database, userId: number): Promise<void> {
  await transaction.delete(passkeys).where(eq(passkeys.userId, userId));
}

export async function passkeyByCredential(
  transaction: Database,
  credentialId: string,
): Promise<Passkey | undefined> {
  const [passkey] = await transaction
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, credentialId))
    .limit(1);
  return passkey;
}

/** GET /mfa/passkeys: the member's passkeys as the account area lists them, newest first. */
export async function listPasskeys(database: Database, userId: number): Promise<PasskeyView[]> {
  return (await passkeysOf(database, userId)).map(describePasskey);
}
