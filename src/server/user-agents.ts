import Bowser from 'bowser';

/**
 * A `User-Agent` as a member reads it on the Activity page, e.g. "Chrome 131 on Linux" or
 * "Safari 17 on macOS"; the browser or the system alone when only one is known; null when the
 * string names neither (a script, an empty header). Server side only: bowser never reaches a
 * client bundle.
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const browserName = browser.name ? [browser.name, major].filter(Boolean).join(' ') : '';
  const systemName = os.name ?? '';
  if (browserName && systemName) return `${browserName} on ${systemName}`;
  return browserName || systemName || null;
}
