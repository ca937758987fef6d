import { describe, expect, it } from 'vitest';
import { DATE_FORMAT, WEEK_STARTS_ON, formatDate, weekdayLabels } from './format-date';

describe('formatDate', () => {
  it('shows dates as mm/dd/yy', () => {
    expect(DATE_FORMAT).toBe('mm/dd/yy');
    expect(formatDate('2024-03-05')).toBe('03/05/24');
  });

  it('keeps a date-only value on its calendar day', () => {
    expect(formatDate('1999-12-31')).toBe('12/31/99');
  });

  it('shows a moment in UTC unless told another time zone', () => {
    const moment = new Date('2024-03-05T23:30:00Z');
    expect(formatDate(moment)).toBe('03/05/24');
    expect(formatDate(moment, 'Asia/Tokyo')).toBe('03/06/24');
    expect(formatDate('2024-03-05T23:30:00Z', 'America/New_York')).toBe('03/05/24');
  });

  it('shows a moment in UTC exactly as the formatter of any other time zone would', () => {
    const utc = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      year: '2-digit',
      month: '2-digit',
      day: '2-digit',
    });
    for (let day = 0; day < 800; day += 7) {
      const moment = new Date(Date.UTC(1999, 11, 20, 23, 59) + day * 86_400_000);
      expect(formatDate(moment)).toBe(utc.format(moment));
      expect(formatDate(moment.toISOString())).toBe(formatDate(moment, 'Etc/UTC'));
    }
  });

  it('refuses what is not a date', () => {
    expect(() => formatDate('soon')).toThrow(RangeError);
  });
});

describe('weekdayLabels', () => {
  it('starts the week on Sunday', () => {
    expect(WEEK_STARTS_ON).toBe(0);
    expect(weekdayLabels()).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
  });

  it('gives long English names when asked', () => {
    expect(weekdayLabels('long')[0]).toBe('Sunday');
    expect(weekdayLabels('long')[6]).toBe('Saturday');
  });
});
