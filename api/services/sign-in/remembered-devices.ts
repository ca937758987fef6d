import { createHash } from 'node:crypto';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rememberedDevices, type RememberedDevice } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import { HOUR } from '../../../platform/clock.ts';
import { describeUserAgent } from './user-agents.ts';
import { recordSecurityEvent } from '../audit/security-events.ts';
import { generateToken, hashToken, looksLikeToken } from '../tokens.ts';

/**
 * "Remember this device": after a second step, a member may ask that this browser skip the step for
 * 30 days. The browser keeps a device token and sends it with the password at sign-in; the password
 * is always asked. This module keeps the devices; the step issues them (factors/step.ts), sign-in
 * uses them (authentication.ts), and every change that ends all of a member's sessions forgets
 * them.
 */

/** A remembered device is forgotten this long after the step that remembered it, used or not. */
export const REMEMBERED_DEVICE_LIFETIME_MS = 30 * 24 * HOUR;

/** Devices a member keeps remembered; remembering one more forgets the oldest. */
export const REMEMBERED_DEVICES_PER_MEMBER = 10;

/** What the browser is given once: the token to send at sign-in, and when it stops working. */
export interface IssuedRememberedDevice {
  token: string;
  expiresAt: Date;
}

/** What the list of remembered devices shows of one. */
export interface RememberedDeviceView {
  id: string;
  browser: string;
  system: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
}

/**
 * The public id of a remembered device, made as a session's (devices.ts): a SHA-256 of its token
 * hash under its own prefix, cut to 128 bits. It tells neither the row's number nor the hash, and
 * never equals the id of a session.
 */
export function publicRememberedDeviceId(device: Pick<RememberedDevice, 'tokenHash'>): string {
  return createHash('sha256')
    .update(`remembered-device:${device.tokenHash}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The shape of {@link publicRememberedDeviceId}, checked before any query. */
export const PUBLIC_REMEMBERED_DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

export function rememberedDeviceExpiry(now: Date): Date {
  return new Date(now.getTime() + REMEMBERED_DEVICE_LIFETIME_MS);
}

/**
 * The devices to forget so that at most `cap` stay: the oldest remembered (the larger id first
 * among devices remembered in the same millisecond, as ids only grow).
 */
export function devicesBeyondCap<Device extends Pick<RememberedDevice, 'id' | 'createdAt'>>(
  devices: readonly Device[],
  cap: number = REMEMBERED_DEVICES_PER_MEMBER,
): Device[] {
  const newestFirst = [...devices].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  return newestFirst.slice(cap);
}

/**
 * Remembers the browser of a second step that was just taken, in that step's transaction (run
 * under the user's row lock, so that two steps never both count themselves under the cap).
 * Expired devices of the member go first; then, past {@link REMEMBERED_DEVICES_PER_MEMBER}, the
 * oldest. Records `device_remembered`. Resolves to the token, never stored, for the answer.
 */
export async function rememberDevice(
  transaction: Database,
  userId: number,
  now: Date,
  origin: RequestOrigin,
): Promise<IssuedRememberedDevice> {
  await transaction
    .delete(rememberedDevices)
    .where(and(eq(rememberedDevices.userId, userId), lte(rememberedDevices.expiresAt, now)));
  const token = generateToken();
  const expiresAt = rememberedDeviceExpiry(now);
  await transaction.insert(rememberedDevices).values({
    userId,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt,
    userAgent: origin.userAgent,
  });
  const kept = await transaction
    .select({ id: rememberedDevices.id, createdAt: rememberedDevices.createdAt })
    .from(rememberedDevices)
    .where(eq(rememberedDevices.userId, userId));
  const beyond = devicesBeyondCap(kept).map((device) => device.id);
  if (beyond.length > 0) {
    await transaction.delete(rememberedDevices).where(inArray(rememberedDevices.id, beyond));
  }
  await recordSecurityEvent(transaction, { userId, kind: 'device_remembered', origin, at: now });
  return { token, expiresAt };
}

/**
 * At sign-in, once the password is accepted: whether `token` is an unexpired remembered device of
 * this member, in which case its use is written down. Only the member's own devices are looked
 * among, so another member's token is as unknown as a forged one. An expired device of the member
 * is deleted when met.
 */
export async function useRememberedDevice(
  transaction: Database,
  userId: number,
  token: string,
  now: Date,
): Promise<boolean> {
  if (!looksLikeToken(token)) return false;
  const ofThisToken = and(
    eq(rememberedDevices.userId, userId),
    eq(rememberedDevices.tokenHash, hashToken(token)),
  );
  const [used] = await transaction
    .update(rememberedDevices)
    .set({ lastUsedAt: now })
    .where(and(ofThisToken, gt(rememberedDevices.expiresAt, now)))
    .returning({ id: rememberedDevices.id });
  if (used) return true;
  await transaction
    .delete(rememberedDevices)
    .where(and(ofThisToken, lte(rememberedDevices.expiresAt, now)));
  return false;
}

async function unexpiredDevicesOf(
  database: Database,
  userId: number,
  now: Date,
): Promise<RememberedDevice[]> {
  return database
    .select()
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.userId, userId), gt(rememberedDevices.expiresAt, now)))
    .orderBy(desc(rememberedDevices.createdAt), desc(rememberedDevices.id));
}

/** GET /users/remembered-devices: the member's unexpired remembered devices, newest first. */
export async function listRememberedDevices(
  database: Database,
  userId: number,
  now: Date,
): Promise<RememberedDeviceView[]> {
  const rows = await unexpiredDevicesOf(database, userId, now);
  return rows.map((row) => {
    const { browser, system } = describeUserAgent(row.userAgent);
    return {
      id: publicRememberedDeviceId(row),
      browser,
      system,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      expiresAt: row.expiresAt,
    };
  });
}

/**
 * DELETE /users/remembered-devices/:id: forgets one of the member's unexpired devices, with its
 * event, in one transaction. Another member's device, an expired one and an unknown id are alike
 * `false`: the search only ever looks among the caller's own.
 */
export async function forgetRememberedDevice(
  database: Database,
  caller: { userId: number; origin: RequestOrigin },
  publicId: string,
  now: Date,
): Promise<boolean> {
  if (!PUBLIC_REMEMBERED_DEVICE_ID.test(publicId)) return false;
  return database.transaction(async (transaction) => {
    const rows = await unexpiredDevicesOf(transaction, caller.userId, now);
    const target = rows.find((row) => publicRememberedDeviceId(row) === publicId);
    if (!target) return false;
    const [forgotten] = await transaction
      .delete(rememberedDevices)
      .where(eq(rememberedDevices.id, target.id))
      .returning({ id: rememberedDevices.id });
    // A concurrent forget of the same device won: that one recorded the event.
    if (!forgotten) return false;
    await recordSecurityEvent(transaction, {
      userId: caller.userId,
      kind: 'remembered_device_forgotten',
      origin: caller.origin,
      at: now,
    });
    return true;
  });
}

/**
 * DELETE /users/remembered-devices: forgets every device of the member, with one
 * `remembered_device_forgotten` when there was any. Resolves to how many were forgotten.
 */
export async function forgetAllRememberedDevices(
  database: Database,
  caller: { userId: number; origin: RequestOrigin },
  now: Date,
): Promise<number> {
  return database.transaction(async (transaction) => {
    const forgotten = await forgetRememberedDevices(transaction, caller.userId);
    if (forgotten > 0) {
      await recordSecurityEvent(transaction, {
        userId: caller.userId,
        kind: 'remembered_device_forgotten',
        origin: caller.origin,
        at: now,
      });
    }
    return forgotten;
  });
}

/**
 * Forgets every remembered device of a member, in the transaction of a change that ends all their
 * sessions or their last second factor: a browser remembered before it must take the step again
 * (or has no step left to skip). Records nothing: the change has its own event. Resolves to how
 * many.
 */
export async function forgetRememberedDevices(
  transaction: Database,
  userId: number,
): Promise<number> {
  const forgotten = await transaction
    .delete(rememberedDevices)
    .where(eq(rememberedDevices.userId, userId))
    .returning({ id: rememberedDevices.id });
  return forgotten.length;
}
