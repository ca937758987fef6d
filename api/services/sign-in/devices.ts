import { createHash } from 'node:crypto';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions, type Session } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { forgetRememberedDevices } from './remembered-devices.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { sessionIsLive } from './sessions.ts';
import { describeUserAgent } from './user-agents.ts';

/** What the Devices page shows of a session. */
export interface DeviceSession {
  id: string;
  browser: string;
  system: string | null;
  deviceType: string | null;
  userAgent: string | null;
  network: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  current: boolean;
}

/**
 * The public id of a session: a domain-separated SHA-256 of its token hash, cut to 128 bits. The
 * token hash is itself a hash of 256 random bits, so the id is as unguessable as the token, stable
 * for the session's life, and needs neither a column nor a secret; it tells nothing of the row's
 * integer (how many sessions the API has started) nor of the token hash, whose hash it is.
 */
export function publicSessionId(session: Pick<Session, 'tokenHash'>): string {
  return createHash('sha256')
    .update(`device-session:${session.tokenHash}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The shape of {@link publicSessionId}, checked before any query. */
const PUBLIC_SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

function describe(session: Session, currentSessionId: number): DeviceSession {
  return {
    id: publicSessionId(session),
    ...describeUserAgent(session.userAgent),
    userAgent: session.userAgent,
    network: session.network,
    createdAt: session.createdAt,
    lastUsedAt: session.lastUsedAt,
    current: session.id === currentSessionId,
  };
}

async function liveSessionsOf(database: Database, userId: number, now: Date): Promise<Session[]> {
  return database
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sessionIsLive(now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
}

/**
 * GET /users/sessions: the member's live sessions (the rules of authentication, so an ended or
 * expired one is never listed), most recently used first. The caller's own was just renewed by
 * its request, so it comes first.
 */
export async function listDeviceSessions(
  database: Database,
  caller: { userId: number; sessionId: number },
  now: Date,
): Promise<DeviceSession[]> {
  const rows = await liveSessionsOf(database, caller.userId, now);
  return rows.map((row) => describe(row, caller.sessionId));
}

/**
 * DELETE /users/sessions/:id: ends one of the member's live sessions, with its event, in one
 * transaction. Another member's session, an ended one and an unknown id are alike `false`: the
 * search only ever looks among the caller's own live sessions. Ending the caller's own session is
 * a sign-out.
 */
export async function endDeviceSession(
  database: Database,
  caller: { userId: number; origin: RequestOrigin },
  publicId: string,
  now: Date,
): Promise<boolean> {
  if (!PUBLIC_SESSION_ID.test(publicId)) return false;
  return database.transaction(async (transaction) => {
    const rows = await liveSessionsOf(transaction, caller.userId, now);
    const target = rows.find((row) => publicSessionId(row) === publicId);
    if (!target) return false;
    await transaction
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, target.id), sessionIsLive(now)));
    await recordSecurityEvent(transaction, {
      userId: caller.userId,
      kind: 'session_ended',
      origin: caller.origin,
      at: now,
    });
    return true;
  });
}

/**
 * DELETE /users/sessions: ends every live session of the member but the caller's, with one event
 * when there was any to end, and forgets every remembered device. Answers how many sessions
 * ended.
 */
export async function endOtherDeviceSessions(
  database: Database,
  caller: { userId: number; sessionId: number; origin: RequestOrigin },
  now: Date,
): Promise<number> {
  return database.transaction(async (transaction) => {
    const ended = await transaction
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.userId, caller.userId),
          ne(sessions.id, caller.sessionId),
          sessionIsLive(now),
        ),
      )
      .returning({ id: sessions.id });
    // The member signing the others out wants none of them back without the second step, the
    // caller's browser included: which remembered device is its own, the call does not say.
    await forgetRememberedDevices(transaction, caller.userId);
    if (ended.length > 0) {
      await recordSecurityEvent(transaction, {
        userId: caller.userId,
        kind: 'other_sessions_ended',
        origin: caller.origin,
        at: now,
      });
    }
    return ended.length;
  });
}
