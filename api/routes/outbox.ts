import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { outboxMessages } from '../db/schema/index.ts';
import type { ApiDependencies } from '../http/context.ts';

/**
 * GET /api/v1/outbox: every email and text the API has written, newest first, for the
 * development outbox viewer and for browser tests that read mail like an inbox. Mounted only
 * when the API is opened with `outboxViewer: true`; it shows live reset and unlock links, so it
 * must never be enabled in production. `?recipient=` keeps only one address's messages.
 */
export function createOutboxRoutes({ db }: Pick<ApiDependencies, 'db'>) {
  return new Hono().get('/', async (c) => {
    const recipient = c.req.query('recipient')?.trim().toLowerCase();
    const rows = await db
      .select()
      .from(outboxMessages)
      .where(recipient ? eq(outboxMessages.recipient, recipient) : undefined)
      .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id));
    return c.json({
      messages: rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        recipient: row.recipient,
        subject: row.subject,
        text_body: row.textBody,
        created_at: row.createdAt.toISOString(),
        sent_at: row.sentAt?.toISOString() ?? null,
      })),
    });
  });
}
