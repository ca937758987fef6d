/**
 * A progress figure as shown and announced: a whole percentage between 0 and 100, rounded.
 * Not-a-number counts as 0.
 */
export function toPercent(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** The whole percentage of `loaded` out of `total` bytes; 0 when the total is unknown. */
export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return toPercent((loaded / total) * 100);
}
