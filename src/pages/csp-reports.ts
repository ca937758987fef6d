import type { APIRoute } from 'astro';
import { logger } from '../../platform/logger.ts';
import { refuseCspReportsOverLimit } from '../server/monitoring/csp-report-limit';
import { cspReportTypes, parseCspReports } from '../server/monitoring/csp-reports';
import { readAtMost } from '../server/forms/form-body';
import { visitorAddress } from '../server/http/visitor-address';

/**
 * CSP violation reports (the policy's `report-to` and `report-uri`): each is logged, with the
 * request id, as a warning, and nothing else happens. The body is read up to the route's limit
 * (a longer one is 413); a body that is not a report is refused, so a log line always means a
 * browser reported something. Anyone may post here, so every post counts against its client's
 * limit first, and one over it is answered 429 unread.
 */
export const POST: APIRoute = async (context) => {
  const { request, locals } = context;
  const overLimit = refuseCspReportsOverLimit(visitorAddress(context));
  if (overLimit) return overLimit;
  const contentType = request.headers.get('content-type') ?? '';
  if (!cspReportTypes.some((type) => contentType.toLowerCase().startsWith(type))) {
    return new Response(null, {
      status: 415,
      headers: { 'accept-post': cspReportTypes.join(', ') },
    });
  }
  const body = await readAtMost(request.body, locals.bodyLimit);
  const violations = parseCspReports(contentType, await body.text());
  if (violations === undefined) return new Response(null, { status: 400 });
  for (const violation of violations) {
    logger.warn({ cspViolation: violation }, 'content security policy violation');
  }
  return new Response(null, { status: 204 });
};
