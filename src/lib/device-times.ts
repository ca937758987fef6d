import { formatDate } from '../ui/format-date';

/**
 * When a session started, as the Devices page shows it (the product's date, then the time):
 * "11/25/26 at 10:13 PM UTC". UTC, as every date the server renders, so the page reads the same
 * wherever it was rendered; the `<time datetime>` beside it carries the exact instant.
 */
export function formatDateTime(value: string): string {
  return `${formatDate(value)} at ${timeOfDay.format(new Date(value))} UTC`;
}

const timeOfDay = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  hour: 'numeric',
  minute: '2-digit',
});

/** An instant as the Activity page shows it: "Nov 25, 2026, 10:13 PM UTC". */
export function formatActivityTime(value: string): string {
  return `${activityMoment.format(new Date(value))} UTC`;
}

const activityMoment = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  dateStyle: 'medium',
  timeStyle: 'short',
});

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/**
 * How long ago a session was last used, in words: "just now" under a minute, then minutes, then
 * hours. A session lives at most a day, so days are never needed; an older instant (a clock gone
 * wrong) falls back to its date.
 */
export function lastActive(value: string, now: Date): string {
  const elapsed = now.getTime() - Date.parse(value);
  const minutes = Math.floor(elapsed / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return `on ${formatDate(value)}`;
}
