import { constants } from 'node:zlib';

/**
 * How the server compresses a page with brotli, wherever it does (scripts/start.mjs for every page,
 * the member page cache for the pages it keeps). Quality 5, not brotli's default 11: pages are
 * compressed on every request, and 11 costs ten times more for 8% less. Not 4 either: 5 makes the
 * Dashboard 8% smaller (0.2 ms more), which keeps it inside the first round trip of a new
 * connection. A window of 256 KB, not brotli's 4 MB: every page fits in it, and each encoder claims
 * memory outside V8's heap in proportion to it, which made V8 collect its whole heap every 20 pages
 * or so.
 */
export const pageBrotliParams: Readonly<Record<number, number>> = {
  [constants.BROTLI_PARAM_QUALITY]: 5,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};

/** Whether an `Accept-Encoding` header takes this coding (named, or `*`, and not with q=0). */
export function acceptsCoding(accepted: string | null | undefined, coding: 'gzip' | 'br'): boolean {
  if (typeof accepted !== 'string') return false;
  return accepted.split(',').some((entry) => {
    const [name = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (name !== coding && name !== '*') return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}
