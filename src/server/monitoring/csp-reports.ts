import { loggablePath } from '../../lib/token-redaction.ts';

/** The media types browsers post violation reports with: the Reporting API's, and CSP 2's. */
export const cspReportTypes = ['application/reports+json', 'application/csp-report'] as const;

/**
 * One Content-Security-Policy violation, as much of it as a log line should hold: where it
 * happened and what was blocked, never a query string, a token in a path or a script sample
 * (which may hold what a member typed).
 */
interface CspViolation {
  readonly documentPath: string | undefined;
  readonly blocked: string | undefined;
  readonly directive: string | undefined;
  readonly disposition: string | undefined;
  readonly sourceFile: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
}

/** More than this in one post is not a browser reporting; the rest is dropped. */
export const maxViolationsPerPost = 20;

const maxFieldLength = 200;

/**
 * The violations in a report post, or `undefined` when the body is not a report of `contentType`
 * (one of {@link cspReportTypes}). Reports of other kinds in a Reporting API batch are skipped.
 */
export function parseCspReports(contentType: string, body: string): CspViolation[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === 'application/reports+json') {
    if (!Array.isArray(parsed)) return undefined;
    return parsed
      .filter((report) => isRecord(report) && report['type'] === 'csp-violation')
      .slice(0, maxViolationsPerPost)
      .map((report: Record<string, unknown>) => {
        const details = isRecord(report['body']) ? report['body'] : {};
        return violation({
          document: details['documentURL'] ?? report['url'],
          blocked: details['blockedURL'],
          directive: details['effectiveDirective'],
          disposition: details['disposition'],
          sourceFile: details['sourceFile'],
          line: details['lineNumber'],
          column: details['columnNumber'],
        });
      });
  }
  if (mediaType === 'application/csp-report') {
    const details = isRecord(parsed) ? parsed['csp-report'] : undefined;
    if (!isRecord(details)) return undefined;
    return [
      violation({
        document: details['document-uri'],
        blocked: details['blocked-uri'],
        directive: details['effective-directive'] ?? details['violated-directive'],
        disposition: details['disposition'],
        sourceFile: details['source-file'],
        line: details['line-number'],
        column: details['column-number'],
      }),
    ];
  }
  return undefined;
}

function violation(raw: Record<string, unknown>): CspViolation {
  return {
    documentPath: address(raw['document'], 'path'),
    blocked: address(raw['blocked'], 'origin and path'),
    directive: text(raw['directive']),
    disposition: text(raw['disposition']),
    sourceFile: address(raw['sourceFile'], 'origin and path'),
    line: wholeNumber(raw['line']),
    column: wholeNumber(raw['column']),
  };
}

/**
 * An address fit for a log line: its path with tokens redacted (and its origin when it may be
 * another site's), no query or fragment. A keyword such as `inline` or `eval` stays as it is.
 */
function address(value: unknown, keep: 'path' | 'origin and path'): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  if (!URL.canParse(raw)) return /^[a-z-]+$/i.test(raw) ? raw : '[not an address]';
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol.slice(0, -1);
  const path = loggablePath(url.pathname);
  return keep === 'path' ? path : `${url.origin}${path}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, maxFieldLength) : undefined;
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
