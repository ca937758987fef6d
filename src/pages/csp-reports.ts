import type { APIRoute } from 'astro';
import { logger } from '../../api/logger.ts';
import { bodyLimitOf } from '../routes';
import { cspReportTypes, parseCspReports } from '../server/csp-reports';
import { readAtMost } from '../server/form-body';

/**
 * CSP violation reports (the policy's `report-to` and `report-uri`): each is logged, with the
 * request id, as a warning, and nothing else happens. The body is read up to the route's limit
 * (a longer one is 413); a body that is not a report is refused, so a log line always means a
 * browser reported something.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const contentType = request.headers.get('content-type') ?? '';
  if (!cspReportTypes.some((type) => contentType.toLowerCase().startsWith(type))) {
    return new Response(null, {
      status: 415,
      headers: { 'accept-post': cspReportTypes.join(', ') },
    });
  }
  const body = await readAtMost(request.body, bodyLimitOf(locals.route));
  const violations = parseCspReports(contentType, await body.text());
  if (violations === undefined) return new Response(null, { status: 400 });
  for (const violation of violations) {
    logger.warn({ cspViolation: violation }, 'content security policy violation');
  }
  return new Response(null, { status: 204 });
};
