/** The one source of "now" for the API, so that tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that stands still until a test moves it. */
export interface MovableClock extends Clock {
  advanceBy(milliseconds: number): void;
  set(instant: Date): void;
}

export function createMovableClock(
  start: Date = new Date('2026-01-15T09:00:00.000Z'),
): MovableClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advanceBy(milliseconds) {
      current += milliseconds;
    },
    set(instant) {
      current = instant.getTime();
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
