/**
 * Where each page of the route table (src/routes.ts) lives, for links and redirects. Apart from
 * the table, so that an island linking to a page carries these addresses and not the table.
 */
export const paths = {
  root: '/',
  aboutUs: '/welcome/about-us',
  aboutYou: '/welcome/about-you',
  contactInfo: '/welcome/contact-info',
  signIn: '/sign-in',
  signUp: '/sign-up',
  forgotPassword: '/forgot-password',
  mfaEnrollment: '/mfa-enrollment',
  terms: '/terms',
  dashboard: '/dashboard',
  account: '/account',
  accountSecurity: '/account/security',
  accountData: '/account/data',
  accountDataExport: '/account/data/export',
  accountDeleted: '/account-deleted',
  accountDevices: '/account/devices',
  accountActivity: '/account/activity',
  requests: '/requests',
  request: (requestId: string) => `/requests/${encodeURIComponent(requestId)}`,
  requestCategory: (categoryId: string) => `/requests/category/${encodeURIComponent(categoryId)}`,
  requestAttachment: (requestId: string, attachmentId: string) =>
    `/requests/${encodeURIComponent(requestId)}/attachments/${encodeURIComponent(attachmentId)}`,
  outbox: '/dev/outbox',
  signedOut: '/signed-out',
  cspReports: '/csp-reports',
} as const;
