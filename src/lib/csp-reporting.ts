import { paths } from '../routes';

/**
 * Where browsers send Content-Security-Policy violations. The policy names the endpoint group in
 * `report-to` (the Reporting API, declared by the `Reporting-Endpoints` header) and the path in
 * `report-uri`, which browsers without the Reporting API still use and the others ignore.
 */
const cspReportEndpointGroup = 'csp-endpoint';

/** The `Reporting-Endpoints` header value that gives the group its address on this site. */
export const reportingEndpointsHeader = `${cspReportEndpointGroup}="${paths.cspReports}"`;

/** The directives that send violations to the endpoint. */
export const cspReportingDirectives = [
  `report-uri ${paths.cspReports}`,
  `report-to ${cspReportEndpointGroup}`,
] as const;

/**
 * The policy of an HTML answer Astro did not render (a refusal page written by hand): it loads
 * nothing, so it may do nothing, and it reports like every page.
 */
export const fallbackContentSecurityPolicy = [
  "default-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  ...cspReportingDirectives,
].join('; ');
