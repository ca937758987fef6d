const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;
const STEP = 1024;

/**
 * A file size for people: 1024 units (Bytes, KB, MB, GB), at most one decimal, a trailing ".0"
 * dropped, e.g. "0 Bytes", "1.5 KB", "25 MB". Sizes past the gigabytes stay in GB.
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(STEP)));
  let amount = Number((bytes / STEP ** exponent).toFixed(1));
  // 1023.96 KB rounds to 1024 KB: show it as the next unit instead.
  if (amount >= STEP && exponent < UNITS.length - 1) {
    exponent += 1;
    amount = Number((bytes / STEP ** exponent).toFixed(1));
  }
  return `${amount} ${UNITS[exponent] ?? 'GB'}`;
}
