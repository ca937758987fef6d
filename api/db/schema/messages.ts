import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestampWithZone } from './columns.ts';

/** The outbox: every email and text, written in the transaction of what it tells. */

const OUTBOX_CHANNELS = ['email', 'sms'] as const;

/**
 * Every email and text the API sends, written in the transaction of the change that causes it
 * and delivered afterwards by the outbox worker (api/services/messages/outbox.ts). Rows are kept after
 * delivery: the development outbox viewer lists them.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    /** An email address, or a phone number in E.164 form. */
    recipient: text('recipient').notNull(),
    /** Emails only. */
    subject: text('subject'),
    textBody: text('text_body').notNull(),
    /** Emails only. */
    htmlBody: text('html_body'),
    createdAt: timestampWithZone('created_at').notNull().defaultNow(),
    /** Delivery attempts started so far (counted when a worker claims the message). */
    attempts: integer('attempts').notNull().default(0),
    /**
     * When a worker may next try to deliver it (while one is trying: when its lease runs out).
     * Null once it is delivered or delivery was given up.
     */
    nextAttemptAt: timestampWithZone('next_attempt_at'),
    /** When the provider accepted it; null until then. */
    sentAt: timestampWithZone('sent_at'),
    lastError: text('last_error'),
  },
  (table) => [
    check('outbox_messages_channel', sql`${table.channel} in ('email', 'sms')`),
    check(
      'outbox_messages_email_parts',
      sql`(${table.channel} = 'email') = (${table.subject} is not null and ${table.htmlBody} is not null)`,
    ),
    index('outbox_messages_due_index')
      .on(table.nextAttemptAt)
      .where(sql`${table.nextAttemptAt} is not null`),
    index('outbox_messages_created_at_index').on(table.createdAt),
  ],
);

export type OutboxMessage = typeof outboxMessages.$inferSelect;
