import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, type RecoveryCode } from '../../db/schema/index.ts';

/**
 * Recovery codes: a set of one-time codes the member writes down, each of which takes the MFA step
 * once when neither the phone nor the app is at hand. Lookup secrets in the sense of OWASP ASVS V6:
 * drawn by a CSPRNG, stored only salted and hashed, compared in constant time, spent once. This
 * module keeps the codes; using and renewing them is recovery-codes.ts.
 */

/** Codes in a set. */
const RECOVERY_CODES_PER_SET = 10;
/** Letters in a code: 10 base32 letters are 50 random bits. */
const RECOVERY_CODE_LENGTH = 10;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const CODE_PATTERN = /^[a-z2-7]{10}$/;
const SALT_BYTES = 16;

/** A new code, normalised (10 lowercase base32 letters); see {@link formatRecoveryCode}. */
export function generateRecoveryCode(): string {
  // 256 is a multiple of 32, so keeping 5 bits of each random byte draws every letter evenly.
  return Array.from(randomBytes(RECOVERY_CODE_LENGTH), (byte) => ALPHABET[byte % 32]).join('');
}

/** A code as the member is shown it: two groups of five, `abcde-fghij`, easier to copy out. */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * What a member types, as a code is stored: without spaces or hyphens, in lower case. Codes are
 * copied by hand, so `ABCDE FGHIJ` and ` abcde-fghij ` are the same code.
 */
export function normaliseRecoveryCodeInput(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase();
}

/** Whether normalised text could be a code at all (a malformed one is not counted as a wrong try). */
export function looksLikeRecoveryCode(candidate: string): boolean {
  return CODE_PATTERN.test(candidate);
}

function digest(salt: string, code: string): Buffer {
  return createHash('sha256').update(Buffer.from(salt, 'hex')).update(code, 'utf8').digest();
}

/** What the database keeps instead of a normalised code: a random salt and the salted SHA-256. */
export function hashRecoveryCode(code: string): Pick<RecoveryCode, 'salt' | 'codeHash'> {
  const salt = randomBytes(SALT_BYTES).toString('hex');
  return { salt, codeHash: digest(salt, code).toString('hex') };
}

/** Whether the normalised `candidate` is the code behind `stored`, compared in constant time. */
export function recoveryCodeMatches(
  candidate: string,
  stored: Pick<RecoveryCode, 'salt' | 'codeHash'>,
): boolean {
  if (!looksLikeRecoveryCode(candidate)) return false;
  const expected = Buffer.from(stored.codeHash, 'hex');
  const actual = digest(stored.salt, candidate);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Replaces every code of the member, used or not, with a new set, in the caller's transaction (run
 * under the user's row lock, so that two sets are never made at once). Resolves to the new codes,
 * formatted: the only time they exist outside the member's hands.
 */
export async function issueRecoveryCodes(
  transaction: Database,
  userId: number,
  now: Date,
): Promise<string[]> {
  await deleteRecoveryCodes(transaction, userId);
  const codes = Array.from({ length: RECOVERY_CODES_PER_SET }, generateRecoveryCode);
  await transaction
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, ...hashRecoveryCode(code), createdAt: now })));
  return codes.map(formatRecoveryCode);
}

/**
 * A first set for a member adding a strong factor (an authenticator app; a passkey later), unless
 * they still have an unused code: a set they wrote down stays good. Run it under the user's row
 * lock. Resolves to the new codes, or undefined when none were made.
 */
export async function issueRecoveryCodesIfNone(
  transaction: Database,
  userId: number,
  now: Date,
): Promise<string[] | undefined> {
  if ((await countUnusedRecoveryCodes(transaction, userId)) > 0) return undefined;
  return issueRecoveryCodes(transaction, userId, now);
}

/** For the end of two-step verification: codes that stand in for no factor must not sign in. */
export async function deleteRecoveryCodes(transaction: Database, userId: number): Promise<void> {
  await transaction.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function countUnusedRecoveryCodes(
  database: Database,
  userId: number,
): Promise<number> {
  const [row] = await database
    .select({ unused: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.unused ?? 0;
}

/**
 * Spends the member's unused code that the normalised `candidate` is, if any, with one conditional
 * statement: of two concurrent uses of a code only one wins, even outside a row lock. Resolves to
 * whether a code was spent.
 */
export async function spendRecoveryCode(
  transaction: Database,
  userId: number,
  candidate: string,
  now: Date,
): Promise<boolean> {
  const unused = await transaction
    .select({ id: recoveryCodes.id, salt: recoveryCodes.salt, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  // Every code is compared, so the time taken says nothing of which one matched.
  const matching = unused.filter((code) => recoveryCodeMatches(candidate, code));
  const [code] = matching;
  if (!code) return false;
  const [spent] = await transaction
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.id, code.id), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return spent !== undefined;
}
