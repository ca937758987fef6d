/** How the product shows a date (docs/PRODUCT.md §9). */
export const DATE_FORMAT = 'mm/dd/yy';

/** Weeks start on Sunday; 0 is Sunday, as in `Date.prototype.getDay`. */
export const WEEK_STARTS_ON = 0;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Made once per time zone: a page shows dozens of dates, and making a formatter costs far more than
 * using one.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: '2-digit',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/**
 * A date as mm/dd/yy, e.g. "03/05/24". A date-only string ("2024-03-05") is taken as that
 * calendar day wherever the code runs; a Date or a timestamp is shown in `timeZone` (UTC unless
 * given), so the server and the browser render the same text.
 */
export function formatDate(value: Date | string, timeZone = 'UTC'): string {
  const dateOnly = typeof value === 'string' ? DATE_ONLY.exec(value) : null;
  if (dateOnly) {
    const [, year = '', month = '', day = ''] = dateOnly;
    return `${month}/${day}/${year.slice(-2)}`;
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(value)}`);
  if (timeZone === 'UTC') {
    // Every date the pages show is in UTC: read straight from the date, without ICU's parts.
    const twoDigits = (part: number) => String(part).padStart(2, '0');
    return `${twoDigits(date.getUTCMonth() + 1)}/${twoDigits(date.getUTCDate())}/${twoDigits(date.getUTCFullYear() % 100)}`;
  }
  const parts = dateFormatIn(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('month')}/${part('day')}/${part('year')}`;
}

/** The seven weekday names for a calendar header, starting on Sunday, in English. */
export function weekdayLabels(style: 'short' | 'long' = 'short'): string[] {
  const format = new Intl.DateTimeFormat('en-US', { weekday: style, timeZone: 'UTC' });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, offset) =>
    format.format(new Date(Date.UTC(2023, 0, 1 + ((WEEK_STARTS_ON + offset) % 7)))),
  );
}
