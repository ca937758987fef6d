import type { Database } from '../db/client.ts';
import { securityEvents, type SecurityEventKind } from '../db/schema.ts';
import type { RequestOrigin } from '../http/client-address.ts';

/** How long the Activity page remembers an event; the sweeper removes older ones. */
export const SECURITY_EVENT_RETENTION_DAYS = 90;

/** Where an event came from when nobody's request caused it (a sweeper, a migration). */
export const NO_ORIGIN: RequestOrigin = { network: null, userAgent: null };

/**
 * Writes one of the account's security events (docs/PRODUCT.md §11.2). Call it with the
 * transaction of the change it describes, so an event is never kept for a change that was rolled
 * back, nor a change made without its event.
 */
export async function recordSecurityEvent(
  database: Database,
  event: { userId: number; kind: SecurityEventKind; origin: RequestOrigin; at: Date },
): Promise<void> {
  await database.insert(securityEvents).values({
    userId: event.userId,
    kind: event.kind,
    occurredAt: event.at,
    network: event.origin.network,
    userAgent: event.origin.userAgent,
  });
}
