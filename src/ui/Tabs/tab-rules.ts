/**
 * A horizontal swipe on a panel must travel at least this far to change tab (docs/PRODUCT.md §9).
 */
export const SWIPE_THRESHOLD_PX = 50;

/** The active-tab indicator starts this long after the tabs first render (docs/PRODUCT.md §9). */
export const INDICATOR_DELAY_MS = 150;

/** The scroll buttons move the tab list by this share of its visible width (docs/PRODUCT.md §9). */
const TAB_SCROLL_RATIO = 0.8;

/**
 * A tab's value: its label with every non-word character replaced by an underscore.
 */
export function tabValue(label: string): string {
  return label.replace(/\W/g, '_');
}

/**
 * The tab a swipe on a panel leads to: a horizontal swipe of at least 50 px to the right goes to
 * the next tab, to the left to the previous one, stopping at either end. A swipe that is shorter,
 * or more vertical than horizontal, stays.
 */
export function tabAfterSwipe(
  index: number,
  count: number,
  deltaX: number,
  deltaY: number,
): number {
  if (Math.abs(deltaX) < SWIPE_THRESHOLD_PX || Math.abs(deltaX) <= Math.abs(deltaY)) return index;
  const next = deltaX > 0 ? index + 1 : index - 1;
  return Math.min(count - 1, Math.max(0, next));
}

/**
 * The tab a key moves focus to, after the WAI-ARIA tabs pattern for a horizontal tab list:
 * arrows move and wrap around, Home and End jump to the ends. `null` for any other key.
 */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** How far one press of a scroll button moves the tab list, in pixels. */
export function tabScrollStep(visibleWidth: number): number {
  return Math.round(visibleWidth * TAB_SCROLL_RATIO);
}
