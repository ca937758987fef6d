import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Timestamps are always written from the application's clock (so tests can move time); the
 * database default only covers rows written by hand.
 */
export const timestampWithZone = (name: string) =>
  timestamp(name, { withTimezone: true, mode: 'date' });
