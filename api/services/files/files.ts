import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { blobs, storageDeletions, users } from '../../db/schema/index.ts';
import { HOUR, MINUTE, type Clock } from '../../../platform/clock.ts';
import type { FileStorage } from './storage/file-storage.ts';

/**
 * Members' files: the address a browser uploads one to, attaching it to a request or a note, the
 * short-lived address that downloads it, and the removal of files nobody attached.
 */

/** How long a direct upload address works. */
const UPLOAD_ADDRESS_LIFETIME_MS = 10 * MINUTE;
/** How long a download address works. */
const DOWNLOAD_ADDRESS_LIFETIME_MS = 5 * MINUTE;
/**
 * A file not attached this long after it was asked for is removed. Ten minutes to upload, then
 * the rest of the form: an hour is ample, and it bounds how long a file nobody wants holds disk
 * and the member's quota.
 */
export const UNATTACHED_FILE_LIFETIME_MS = HOUR;
/**
 * The most a member's files may add up to, in bytes (500 MB): what they have, attached or not,
 * uploaded or only asked for, and the file they ask to upload. Twenty files at the 25 MB limit;
 * without it, sign-up being open to all, each account could fill 2.5 GB of storage an hour.
 */
const STORAGE_QUOTA_BYTES = 500 * 1024 * 1024;
/** The refusal of an upload address past the quota. */
export const STORAGE_QUOTA_EXCEEDED_MESSAGE =
  'There is no room for this file: your files may take up at most 500 MB in all. Files not attached to a request are removed after an hour.';

export interface FileDeclaration {
  filename: string;
  /** A media type, lower-case, without parameters. */
  contentType: string;
  byteSize: number;
  /** Base64 SHA-256 of the content. */
  checksum: string;
}

export interface DirectUploadAnswer {
  id: string;
  filename: string;
  content_type: string;
  byte_size: number;
  direct_upload: { url: string; method: 'PUT'; headers: Record<string, string> };
  expires_at: string;
}

/** A storage key: random, never derived from anything the member chose. */
export function newStorageKey(): string {
  return `uploads/${randomBytes(24).toString('base64url')}`;
}

/** Why a member may not have an upload address. */
type DirectUploadRefusal = 'storage_quota_exceeded';

/**
 * Records a file the member is about to upload and gets the address to send it to, unless it
 * would take their files past {@link STORAGE_QUOTA_BYTES}; then nothing is recorded. The row
 * comes first: should storage fail to sign, the unattached row is removed an hour later.
 */
export async function createDirectUpload(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  userId: number,
  file: FileDeclaration,
): Promise<DirectUploadAnswer | DirectUploadRefusal> {
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_ADDRESS_LIFETIME_MS);
  const blob = await database.transaction(async (transaction) => {
    // The member's row lock queues their own concurrent asks, so that two cannot both take the
    // room left for one; `no key update` still lets rows that refer to the member be written.
    await transaction
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, userId))
      .for('no key update');
    const [usage] = await transaction
      .select({ bytes: sql<number>`coalesce(sum(${blobs.byteSize}), 0)`.mapWith(Number) })
      .from(blobs)
      .where(eq(blobs.userId, userId));
    if ((usage?.bytes ?? 0) + file.byteSize > STORAGE_QUOTA_BYTES) return undefined;
    const [row] = await transaction
      .insert(blobs)
      .values({
        userId,
        key: newStorageKey(),
        filename: file.filename,
        contentType: file.contentType,
        byteSize: file.byteSize,
        checksum: file.checksum,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('Recording a direct upload returned no row.');
    return row;
  });
  if (!blob) return 'storage_quota_exceeded';
  const target = await storage.createUploadTarget(
    {
      key: blob.key,
      byteSize: blob.byteSize,
      contentType: blob.contentType,
      checksum: blob.checksum,
    },
    expiresAt,
  );
  return {
    id: blob.id,
    filename: blob.filename,
    content_type: blob.contentType,
    byte_size: blob.byteSize,
    direct_upload: { url: target.url, method: target.method, headers: target.headers },
    expires_at: expiresAt.toISOString(),
  };
}

/** A short-lived address of one of the member's attached files; undefined when not theirs. */
export async function createDownloadAddress(
  database: Database,
  clock: Clock,
  storage: FileStorage,
  userId: number,
  blobId: string,
): Promise<{ url: string; expires_at: string } | undefined> {
  const [blob] = await database
    .select()
    .from(blobs)
    .where(and(eq(blobs.id, blobId), eq(blobs.userId, userId), isNotNull(blobs.requestId)));
  if (!blob) return undefined;
  const expiresAt = new Date(clock.now().getTime() + DOWNLOAD_ADDRESS_LIFETIME_MS);
  const url = await storage.createDownloadUrl(
    { key: blob.key, filename: blob.filename, contentType: blob.contentType },
    expiresAt,
  );
  return { url, expires_at: expiresAt.toISOString() };
}

/** Why a file cannot be attached. */
export type AttachmentProblem =
  'attachment_not_found' | 'attachment_not_uploaded' | 'attachment_already_attached';

/**
 * Attaches the member's files to a timeline entry, inside the caller's transaction, or says why
 * one of them cannot be: not the member's (or no such file), upload not completed, already
 * attached. Checks every file before changing any, under row locks, so two requests taking one
 * file cannot both have it. An upload counts as completed when `uploaded_at` is set, or when
 * storage holds exactly the declared size (drivers the browser talks to directly, which cannot
 * tell the API); it is then recorded.
 */
export async function attachFiles(
  transaction: Database,
  storage: FileStorage,
  now: Date,
  target: { userId: number; requestId: string; requestUpdateId: string },
  blobIds: readonly string[],
): Promise<AttachmentProblem | undefined> {
  if (blobIds.length === 0) return undefined;
  const rows = await transaction
    .select()
    .from(blobs)
    .where(and(inArray(blobs.id, [...blobIds]), eq(blobs.userId, target.userId)))
    .for('update');
  const completedNow: string[] = [];
  for (const id of blobIds) {
    const blob = rows.find((row) => row.id === id);
    if (!blob) return 'attachment_not_found';
    if (blob.requestId !== null) return 'attachment_already_attached';
    if (blob.uploadedAt === null) {
      const stored = await storage.stat(blob.key);
      if (stored?.byteSize !== blob.byteSize) return 'attachment_not_uploaded';
      completedNow.push(blob.id);
    }
  }
  if (completedNow.length > 0) {
    await transaction.update(blobs).set({ uploadedAt: now }).where(inArray(blobs.id, completedNow));
  }
  await transaction
    .update(blobs)
    .set({ requestId: target.requestId, requestUpdateId: target.requestUpdateId })
    .where(inArray(blobs.id, [...blobIds]));
  return undefined;
}

/**
 * Removes up to `batchSize` files that nobody attached within an hour
 * ({@link UNATTACHED_FILE_LIFETIME_MS}) of asking for their upload address: the rows, then the
 * stored files, in one transaction, so that a file is never attached after its content is gone
 * (a concurrent attach waits for the row lock, then finds no row). Resolves to the number removed.
 */
export async function removeUnattachedFiles(
  database: Database,
  storage: FileStorage,
  now: Date,
  batchSize = 100,
): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_FILE_LIFETIME_MS);
  return database.transaction(async (transaction) => {
    const due = transaction
      .select({ id: blobs.id })
      .from(blobs)
      .where(and(isNull(blobs.requestId), lte(blobs.createdAt, cutoff)))
      .orderBy(asc(blobs.createdAt))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const removed = await transaction
      .delete(blobs)
      .where(and(inArray(blobs.id, due), isNull(blobs.requestId)))
      .returning({ key: blobs.key });
    for (const { key } of removed) await storage.delete(key);
    return removed.length;
  });
}

/**
 * Drops from storage up to `batchSize` files of {@link storageDeletions} (a deleted account's),
 * each row removed once storage has let the file go. A store that fails keeps the rest queued for
 * the next pass. Resolves to the number dropped.
 */
export async function removeQueuedStorageFiles(
  database: Database,
  storage: FileStorage,
  batchSize = 100,
  keys?: readonly string[],
): Promise<number> {
  return database.transaction(async (transaction) => {
    const due = await transaction
      .select({ key: storageDeletions.key })
      .from(storageDeletions)
      .where(keys ? inArray(storageDeletions.key, [...keys]) : undefined)
      .orderBy(asc(storageDeletions.requestedAt))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    for (const { key } of due) {
      await storage.delete(key);
      await transaction.delete(storageDeletions).where(eq(storageDeletions.key, key));
    }
    return due.length;
  });
}
