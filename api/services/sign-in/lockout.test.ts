import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../../platform/clock.ts';
import {
  currentLockoutState,
  isLocked,
  LOCKOUT_THRESHOLD,
  stateAfterFailedSignIn,
  UNLOCKED_STATE,
  type LockoutState,
} from './lockout.ts';

const start = new Date('2026-01-15T09:00:00.000Z');
const after = (milliseconds: number) => new Date(start.getTime() + milliseconds);

function failRepeatedly(times: number, state: LockoutState = UNLOCKED_STATE, at = start) {
  let current = state;
  const locks: boolean[] = [];
  for (let attempt = 0; attempt < times; attempt += 1) {
    const result = stateAfterFailedSignIn(current, at);
    current = result.state;
    locks.push(result.newlyLocked);
  }
  return { state: current, locks };
}

describe('lockout maths', () => {
  it('locks at the 10th consecutive failure and reports it exactly once', () => {
    expect(LOCKOUT_THRESHOLD).toBe(10);

    const { state, locks } = failRepeatedly(12);

    expect(locks.indexOf(true)).toBe(9);
    expect(locks.filter(Boolean)).toHaveLength(1);
    expect(state).toEqual({ failedAttempts: 10, lockedAt: start });
  });

  it('counts 9 failures without locking', () => {
    const { state } = failRepeatedly(9);

    expect(state).toEqual({ failedAttempts: 9, lockedAt: null });
    expect(isLocked(state, start)).toBe(false);
  });

  it('keeps the account locked for just under an hour and lifts the lock at one hour', () => {
    const locked: LockoutState = { failedAttempts: 10, lockedAt: start };

    expect(isLocked(locked, start)).toBe(true);
    expect(isLocked(locked, after(HOUR - 1))).toBe(true);
    expect(isLocked(locked, after(HOUR))).toBe(false);
  });

  it('neither counts nor extends anything while locked', () => {
    const locked: LockoutState = { failedAttempts: 10, lockedAt: start };

    expect(stateAfterFailedSignIn(locked, after(30 * MINUTE))).toEqual({
      state: locked,
      newlyLocked: false,
    });
  });

  it('forgets the failures once a lock has lifted', () => {
    const lapsed: LockoutState = { failedAttempts: 10, lockedAt: start };

    expect(currentLockoutState(lapsed, after(HOUR))).toEqual(UNLOCKED_STATE);
    expect(stateAfterFailedSignIn(lapsed, after(HOUR))).toEqual({
      state: { failedAttempts: 1, lockedAt: null },
      newlyLocked: false,
    });
  });

  it('locks again after 10 more failures once a lock has lifted', () => {
    const lapsed: LockoutState = { failedAttempts: 10, lockedAt: start };

    const { state, locks } = failRepeatedly(10, lapsed, after(2 * HOUR));

    expect(locks.at(-1)).toBe(true);
    expect(state.lockedAt).toEqual(after(2 * HOUR));
  });

  it('does not forget failures with time alone, only with a lifted lock or a success', () => {
    const { state } = failRepeatedly(9);

    expect(stateAfterFailedSignIn(state, after(48 * HOUR)).newlyLocked).toBe(true);
  });
});
