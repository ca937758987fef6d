import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestampWithZone } from './columns.ts';
import { users } from './accounts.ts';

/** Members' concierge requests, their categories and timelines. */

/** Where a concierge request stands. */
const REQUEST_STATUSES = [
  'submitted',
  'in_progress',
  'waiting_on_member',
  'completed',
  'cancelled',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses in which the concierge is still working on a request: it can be cancelled. */
export const OPEN_REQUEST_STATUSES = [
  'submitted',
  'in_progress',
  'waiting_on_member',
] as const satisfies readonly RequestStatus[];

/** Icons the web tier draws for categories; a category names one of them. */
const CATEGORY_ICONS = ['home', 'travel', 'health', 'finance', 'family', 'errands'] as const;
export type CategoryIcon = (typeof CATEGORY_ICONS)[number];

/**
 * What members can ask the concierge for. The id is a readable slug (`travel`), used in the
 * category page's address; the list is seeded by the migration that makes the table.
 */
export const requestCategories = pgTable(
  'request_categories',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    icon: text('icon', { enum: CATEGORY_ICONS }).notNull(),
    /** Order in lists: smallest first. */
    position: integer('position').notNull(),
  },
  (table) => [
    check(
      'request_categories_icon',
      sql`${table.icon} in ('home', 'travel', 'health', 'finance', 'family', 'errands')`,
    ),
  ],
);

/** A member's concierge request. Its public id is a UUID, so ids say nothing of how many exist. */
export const requests = pgTable(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => requestCategories.id),
    title: text('title').notNull(),
    details: text('details').notNull().default(''),
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('submitted'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** When anything last happened to it (a note, a status change): lists sort by it. */
    updatedAt: timestampWithZone('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check(
      'requests_status',
      sql`${table.status} in ('submitted', 'in_progress', 'waiting_on_member', 'completed', 'cancelled')`,
    ),
    // The lists' order (most recently updated first, ties by creation then id), per member and per
    // member and category: a page by position starts in the index.
    index('requests_user_id_list_order_index').on(
      table.userId,
      table.updatedAt,
      table.createdAt,
      table.id,
    ),
    index('requests_user_id_category_id_list_order_index').on(
      table.userId,
      table.categoryId,
      table.updatedAt,
      table.createdAt,
      table.id,
    ),
  ],
);

/** What a timeline entry records. */
const REQUEST_UPDATE_KINDS = ['created', 'status_changed', 'note'] as const;
export type RequestUpdateKind = (typeof REQUEST_UPDATE_KINDS)[number];

/** Who wrote a timeline entry. */
const REQUEST_UPDATE_AUTHORS = ['member', 'concierge'] as const;
export type RequestUpdateAuthor = (typeof REQUEST_UPDATE_AUTHORS)[number];

/** The timeline of a request: its creation, each status change and each note, oldest first. */
export const requestUpdates = pgTable(
  'request_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REQUEST_UPDATE_KINDS }).notNull(),
    author: text('author', { enum: REQUEST_UPDATE_AUTHORS }).notNull(),
    /** The note, or a sentence about the change; may be empty for a change without comment. */
    body: text('body').notNull().default(''),
    /** For `status_changed`: the status the request moved to. */
    status: text('status', { enum: REQUEST_STATUSES }),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
  },
  (table) => [
    check('request_updates_kind', sql`${table.kind} in ('created', 'status_changed', 'note')`),
    check('request_updates_author', sql`${table.author} in ('member', 'concierge')`),
    check(
      'request_updates_status_given',
      sql`(${table.kind} = 'status_changed') = (${table.status} is not null)`,
    ),
    index('request_updates_request_id_created_at_index').on(table.requestId, table.createdAt),
  ],
);

export type RequestCategory = typeof requestCategories.$inferSelect;
export type RequestUpdate = typeof requestUpdates.$inferSelect;
