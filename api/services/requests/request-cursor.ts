/**
 * Where a page of a member's requests starts or ends, in the lists' order (most recently updated
 * first, then most recently made, then by id): the last request of a page, for the next one
 * (`after`), or the first, for the one before (`before`). Paging by position, not by a count of
 * requests to skip, costs the same on the hundredth page as on the first.
 *
 * A cursor is opaque to callers: the position's exact timestamps (to the microsecond, as the
 * database keeps them) and id, as base64url JSON.
 */
export interface RequestPosition {
  /** `updated_at`, exact, e.g. `2026-11-26T18:03:11.123456Z`. */
  readonly updatedAt: string;
  readonly createdAt: string;
  readonly id: string;
}

/** The longest cursor a caller may send: two timestamps and a UUID, encoded, fit well under. */
export const MAX_CURSOR_LENGTH = 200;

const exactTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(position: RequestPosition): string {
  return Buffer.from(
    JSON.stringify([position.updatedAt, position.createdAt, position.id]),
    'utf8',
  ).toString('base64url');
}

/** The position a cursor names; undefined for anything this API did not make. */
export function decodeCursor(cursor: string): RequestPosition | undefined {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[\w-]+$/.test(cursor)) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 3) return undefined;
  const [updatedAt, createdAt, id] = parts as unknown[];
  if (
    typeof updatedAt !== 'string' ||
    typeof createdAt !== 'string' ||
    typeof id !== 'string' ||
    !exactTimestamp.test(updatedAt) ||
    !exactTimestamp.test(createdAt) ||
    !uuid.test(id) ||
    Number.isNaN(Date.parse(updatedAt)) ||
    Number.isNaN(Date.parse(createdAt))
  ) {
    return undefined;
  }
  return { updatedAt, createdAt, id };
}
