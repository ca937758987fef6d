import { z } from 'zod';
import type { ApiClient } from './client';

const securityEventsSchema = z.object({
  events: z.array(
    z.object({
      // A kind this portal does not know yet stays, shown in general words.
      kind: z.string(),
      occurred_at: z.iso.datetime({ offset: true }),
      network: z.string().nullable().optional().default(null),
      user_agent: z.string().nullable().optional().default(null),
      browser: z.string().nullable().optional().default(null),
      system: z.string().nullable().optional().default(null),
    }),
  ),
  next: z.string().nullable().optional().default(null),
  previous: z.string().nullable().optional().default(null),
});

export type SecurityEventsPage = z.infer<typeof securityEventsSchema>;

/** The API's cursors; anything else in `?before=` or `?after=` is not passed on. */
const securityEventCursor = /^\d{1,15}-\d{1,10}$/;

function securityEventCursorFrom(value: string | null | undefined): string | undefined {
  return value && securityEventCursor.test(value) ? value : undefined;
}

/**
 * A page of the member's security events, newest first: the newest, the page older than `before` or
 * the page newer than `after`.
 */
interface SecurityEventsPosition {
  before?: string | undefined;
  after?: string | undefined;
}

/** The position an Activity address (`?before=`, else `?after=`) asks for. */
export function securityEventsPositionFrom(search: URLSearchParams): SecurityEventsPosition {
  const before = securityEventCursorFrom(search.get('before'));
  const after = before ? undefined : securityEventCursorFrom(search.get('after'));
  return { before, after };
}

/** The API's address of one page of the account's security events. */
export function securityEventsPath(position: SecurityEventsPosition): string {
  const query = new URLSearchParams();
  if (position.before) query.set('before', position.before);
  else if (position.after) query.set('after', position.after);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return `/api/v1/users/events${search}`;
}

export async function fetchSecurityEvents(
  api: ApiClient,
  position: SecurityEventsPosition,
): Promise<SecurityEventsPage> {
  const { data } = await api.request('GET', securityEventsPath(position), {
    schema: securityEventsSchema,
  });
  return data;
}
