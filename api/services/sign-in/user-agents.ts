import Bowser from 'bowser';

/** The words for a browser that a `User-Agent` does not name. */
const UNKNOWN_BROWSER = 'Unknown browser';

/**
 * A browser's name and version as a member recognises it: Chrome and Firefox by their major
 * version ("Chrome 140"), Safari by major and minor, as Apple numbers its releases ("Safari 17.5").
 */
function browserLabel(name: string | undefined, version: string | undefined): string {
  if (!name) return UNKNOWN_BROWSER;
  const parts = (version ?? '').split('.').filter((part) => /^\d+$/.test(part));
  const kept = parts.slice(0, name === 'Safari' && parts[1] !== '0' ? 2 : 1);
  return kept.length > 0 ? `${name} ${kept.join('.')}` : name;
}

/**
 * The browser, system and kind of device of a `User-Agent`, parsed with bowser. Parsing happens
 * here, in the API, so every client of the API shows the same words; an empty, missing or
 * unrecognised agent is an "Unknown browser" with no system.
 */
export function describeUserAgent(userAgent: string | null): {
  browser: string;
  system: string | null;
  deviceType: string | null;
} {
  if (!userAgent?.trim()) return { browser: UNKNOWN_BROWSER, system: null, deviceType: null };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: browserLabel(parsed.browser.name, parsed.browser.version),
    system: parsed.os.name || null,
    deviceType: parsed.platform.type || null,
  };
}
