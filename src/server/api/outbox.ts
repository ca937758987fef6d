import { z } from 'zod';
import type { ApiClient } from './client';

const outboxSchema = z.object({
  messages: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      channel: z.enum(['email', 'sms']),
      recipient: z.string(),
      subject: z.string().nullable(),
      text_body: z.string(),
      created_at: z.string(),
      sent_at: z.string().nullable(),
    }),
  ),
});

export type OutboxMessage = z.infer<typeof outboxSchema>['messages'][number];

/** Every email and text the API wrote, newest first (only where the outbox viewer is on). */
export async function fetchOutbox(api: ApiClient): Promise<OutboxMessage[]> {
  const { data } = await api.request('GET', '/api/v1/outbox', { schema: outboxSchema });
  return data.messages;
}
