import { constants } from 'node:zlib';

/**
 * How the server compresses a page with brotli, wherever it does (scripts/start.mjs for every page,
 * the member page cache for the pages it keeps). Quality 4, not brotli's default 11: pages are
 * compressed on every request, and 11 costs many times more for a few percent less. Quality 5 made
 * the Dashboard 7% smaller (7.0 KB against 7.5) for 0.3 ms more a view; both fit the first round
 * trip of a new connection (docs/decisions/074-brotli-quality-4.md). A window of 256 KB, not
 * brotli's 4 MB: every page fits in it, and each encoder claims
 * memory outside V8's heap in proportion to it, which made V8 collect its whole heap every 20 pages
 * or so.
 */
export const pageBrotliParams: Readonly<Record<number, number>> = {
  [constants.BROTLI_PARAM_QUALITY]: 4,
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
