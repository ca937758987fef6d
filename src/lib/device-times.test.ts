import { describe, expect, it } from 'vitest';
import { formatDateTime, lastActive } from './device-times';

describe('formatDateTime', () => {
  it('shows the date as mm/dd/yy and the time in UTC', () => {
    expect(formatDateTime('2026-11-25T22:13:08.000Z')).toBe('11/25/26 at 10:13 PM UTC');
  });
});

describe('lastActive', () => {
  const now = new Date('2026-11-25T22:13:08.000Z');

  it('says just now, then minutes, then hours', () => {
    expect(lastActive('2026-11-25T22:12:30.000Z', now)).toBe('just now');
    expect(lastActive('2026-11-25T22:12:08.000Z', now)).toBe('1 minute ago');
    expect(lastActive('2026-11-25T21:50:00.000Z', now)).toBe('23 minutes ago');
    expect(lastActive('2026-11-25T19:13:08.000Z', now)).toBe('3 hours ago');
    expect(lastActive('2026-11-20T19:13:08.000Z', now)).toBe('on 11/20/26');
  });
});
