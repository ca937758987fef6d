import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestampWithZone } from './columns.ts';
import { users } from './accounts.ts';
import { requests, requestUpdates } from './requests.ts';

/** Members' files and the storage keys waiting to be deleted. */

/**
 * A file a member uploaded straight to storage. It is created by `POST /direct_uploads` with the
 * size, type and checksum the upload must match; `uploadedAt` is set once storage holds exactly
 * that file; it becomes an attachment when a request or a note takes it (`requestId`,
 * `requestUpdateId`). Files never attached are removed after a day.
 */
export const blobs = pgTable(
  'blobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where storage keeps it: chosen by the server, never derived from the file name. */
    key: text('key').notNull().unique(),
    /** The member's name for the file, used only for display and downloads. */
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Base64 SHA-256 of the content, as the uploader declared it; storage checks it. */
    checksum: text('checksum').notNull(),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When storage confirmed the whole file; null while the upload has not completed. */
    uploadedAt: timestampWithZone('uploaded_at'),
    requestId: uuid('request_id').references(() => requests.id, { onDelete: 'cascade' }),
    /** The timeline entry (the request's creation or a note) the file came with. */
    requestUpdateId: uuid('request_update_id').references(() => requestUpdates.id, {
      onDelete: 'cascade',
    }),
  },
  (table) => [
    check('blobs_byte_size', sql`${table.byteSize} between 0 and 26214400`),
    check(
      'blobs_attached_whole',
      sql`(${table.requestId} is null) = (${table.requestUpdateId} is null)`,
    ),
    check(
      'blobs_attached_only_uploaded',
      sql`${table.requestId} is null or ${table.uploadedAt} is not null`,
    ),
    index('blobs_request_id_index').on(table.requestId),
    // A timeline entry's files, read with the entry (a request's page, the Dashboard's updates).
    index('blobs_request_update_id_index').on(table.requestUpdateId),
    index('blobs_unattached_created_at_index')
      .on(table.createdAt)
      .where(sql`${table.requestId} is null`),
    index('blobs_user_id_index').on(table.userId),
  ],
);

/**
 * Files whose rows are gone (a deleted account's) and whose content storage still has to drop.
 * The deletion writes them in its transaction, so a file is never forgotten by a storage outage
 * nor dropped for an account that stays; the unattached-file sweeper removes them from storage.
 */
export const storageDeletions = pgTable('storage_deletions', {
  key: text('key').primaryKey(),
  requestedAt: timestampWithZone('requested_at').notNull().defaultNow(),
});

export type Blob = typeof blobs.$inferSelect;
