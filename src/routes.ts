/**
 * The one route table. Pages, guards, legacy and partner redirects are data here; the middleware
 * applies them (src/route-matching.ts resolves an address against them) and the tests read them.
 * Patterns are URLPattern pathnames, so matching is exact: no prefix tricks, no double-slash or
 * encoding surprises.
 */

/** Who may see a page. */
export type Guard =
  /** Anyone. */
  | 'public'
  /** A valid, unexpired session; otherwise the path is remembered and the visitor signs in. */
  | 'auth'
  /** Sign-in: a signed-in user with no pending MFA step goes to the Dashboard instead. */
  | 'guest'
  /** MFA enrollment: only signed in, with enrollment available or verification required. */
  | 'mfa-step'
  /** Developer pages: only when the kit gallery is enabled (development and test builds). */
  | 'kit-gallery'
  /** The outbox viewer: only when it is enabled (development and tests). */
  | 'outbox-viewer'
  /**
   * The content editors' editor: only in a build that has it (`npm run dev`, or one made for
   * GitHub mode; src/build/content-editor.mjs), where its own sign-in, or this machine, guards it.
   */
  | 'content-editor';

export type RouteName =
  | 'Root'
  | 'Welcome'
  | 'AboutUs'
  | 'AboutYou'
  | 'ContactInfo'
  | 'SignIn'
  | 'CompanySignIn'
  | 'CompanySignInCallback'
  | 'CompanySignInLink'
  | 'CompanySignInSamlAcs'
  | 'CompanySignInSamlMetadata'
  | 'SignUp'
  | 'ForgotPassword'
  | 'ResetPassword'
  | 'MfaEnrollment'
  | 'UnlockUser'
  | 'ConfirmEmail'
  | 'Terms'
  | 'Dashboard'
  | 'Account'
  | 'AccountSecurity'
  | 'AccountData'
  | 'AccountDataExport'
  | 'AccountDevices'
  | 'AccountActivity'
  | 'Requests'
  | 'Request'
  | 'RequestCategory'
  | 'RequestAttachment'
  | 'Storage'
  | 'KitGallery'
  | 'OutboxViewer'
  | 'ContentEditor'
  | 'ContentEditorApi'
  | 'Health'
  | 'Ready'
  | 'SignedOut'
  | 'AccountDeleted'
  | 'CspReports';

export interface PageRoute {
  readonly name: RouteName;
  /** URLPattern pathname syntax: `:name` one segment, `{/:name}?` an optional one. */
  readonly pattern: string;
  readonly guard: Guard;
  /** A route that only forwards (once its guard lets the visitor through). */
  readonly redirectTo?: string;
  /**
   * The largest request body the route takes from a visitor with a session;
   * {@link formBodyLimitBytes} unless set, and that for everyone else.
   */
  readonly maxBodyBytes?: number;
  /**
   * The route takes {@link maxBodyBytes} from visitors without a session too: a credential of
   * its own (a signed address) stands in for one, or it is never served in production.
   */
  readonly fullBodyLimitWithoutSession?: true;
  /**
   * Takes posts from other sites: every other route refuses a post whose `Origin` is not the
   * site's own (src/server/middleware/cross-site-posts.ts), before anything reads it.
   */
  readonly crossSitePosts?: true;
  /**
   * Answers with something other than a page people read (a file, a redirect to one, a health
   * check): a visit there leaves the toasts waiting for the next page.
   */
  readonly endpoint?: true;
  /**
   * A first visit (no cookie but an anonymous XSRF token, no query) gets the same page here but
   * for its form token, so the server keeps one such answer and sends copies with each visitor's
   * own token (src/server/first-visit/first-visit-pages.ts). Only for patterns without parameters.
   */
  readonly firstVisitCopies?: true;
  /**
   * A member's view of this page is kept (compressed) and served again to the same session while
   * nothing it shows has changed: the member's data version, the form token, the welcome state
   * and the address (src/server/member-pages/member-page-cache.ts). Only for `auth` pages whose
   * every word comes from the member's data, the build, or those: no clock, no other table.
   */
  readonly memberPageCache?: true;
  /**
   * Builds a link to the page from its parameters, for a pattern that has any; a page with a fixed
   * pattern is linked to by its pattern (see {@link paths}).
   */
  readonly path?: string | ((...parameters: string[]) => string);
}

/**
 * Forms carry a few fields; files go straight to storage. Every request body is refused above this
 * unless its route says otherwise.
 */
export const formBodyLimitBytes = 256 * 1024;

/** A storage upload: the largest file and room for the framing around it. */
export const uploadBodyLimitBytes = 25 * 1024 * 1024 + 64 * 1024;

/**
 * A batch of CSP violation reports: browsers send a few at a time, each well under 2 KiB; more
 * than this is not a browser reporting.
 */
export const cspReportBodyLimitBytes = 64 * 1024;

/** Every page of the product, in the order docs/PRODUCT.md §2 lists them. */
export const pageRoutes = [
  { name: 'Root', pattern: '/', guard: 'public' },
  { name: 'Welcome', pattern: '/welcome', guard: 'auth', redirectTo: '/welcome/about-us' },
  { name: 'AboutUs', pattern: '/welcome/about-us', guard: 'auth' },
  { name: 'AboutYou', pattern: '/welcome/about-you', guard: 'auth' },
  { name: 'ContactInfo', pattern: '/welcome/contact-info', guard: 'auth' },
  { name: 'SignIn', pattern: '/sign-in', guard: 'guest', firstVisitCopies: true },
  // Company sign-in (docs/PRODUCT.md §15): on the way to the company's provider, back from it, and
  // an existing account's password to link it. The browser's own sign-in token is their guard.
  { name: 'CompanySignIn', pattern: '/sign-in/company', guard: 'public' },
  {
    name: 'CompanySignInCallback',
    pattern: '/sign-in/company/callback',
    guard: 'public',
    endpoint: true,
  },
  { name: 'CompanySignInLink', pattern: '/sign-in/company/link', guard: 'public' },
  /**
   * A SAML provider's answer, posted by the browser from the provider's page: the one route that
   * takes a post from another site (its signed response is its credential).
   */
  {
    name: 'CompanySignInSamlAcs',
    pattern: '/sign-in/company/saml/:companySlug/acs',
    guard: 'public',
    endpoint: true,
    crossSitePosts: true,
  },
  {
    name: 'CompanySignInSamlMetadata',
    pattern: '/sign-in/company/saml/:companySlug/metadata',
    guard: 'public',
    endpoint: true,
  },
  { name: 'SignUp', pattern: '/sign-up{/:companySlug}?', guard: 'public', path: '/sign-up' },
  { name: 'ForgotPassword', pattern: '/forgot-password', guard: 'public', firstVisitCopies: true },
  { name: 'ResetPassword', pattern: '/reset-password/:resetToken', guard: 'public' },
  { name: 'MfaEnrollment', pattern: '/mfa-enrollment', guard: 'mfa-step' },
  { name: 'UnlockUser', pattern: '/unlock/:unlockToken', guard: 'public' },
  // The link that proves an address, at sign-up or for a change: signed in or not.
  { name: 'ConfirmEmail', pattern: '/confirm-email/:confirmationToken', guard: 'public' },
  // The terms the sign-up form asks to accept: readable before, during and after sign-up.
  { name: 'Terms', pattern: '/terms', guard: 'public' },
  // Pages with the new-request or note form: without JavaScript its file comes with the post.
  {
    name: 'Dashboard',
    pattern: '/dashboard',
    guard: 'auth',
    maxBodyBytes: uploadBodyLimitBytes,
    memberPageCache: true,
  },
  { name: 'AccountSecurity', pattern: '/account/security', guard: 'auth' },
  { name: 'AccountDevices', pattern: '/account/devices', guard: 'auth' },
  { name: 'AccountActivity', pattern: '/account/activity', guard: 'auth' },
  { name: 'Requests', pattern: '/requests', guard: 'auth', memberPageCache: true },
  {
    name: 'RequestCategory',
    pattern: '/requests/category/:categoryId',
    guard: 'auth',
    maxBodyBytes: uploadBodyLimitBytes,
    memberPageCache: true,
    path: (categoryId: string) => `/requests/category/${encodeURIComponent(categoryId)}`,
  },
  {
    name: 'Request',
    pattern: '/requests/:requestId',
    guard: 'auth',
    maxBodyBytes: uploadBodyLimitBytes,
    memberPageCache: true,
    path: (requestId: string) => `/requests/${encodeURIComponent(requestId)}`,
  },
  /** Asks the API for a short-lived signed address of the file and sends the browser there. */
  {
    name: 'RequestAttachment',
    pattern: '/requests/:requestId/attachments/:attachmentId',
    guard: 'auth',
    endpoint: true,
    path: (requestId: string, attachmentId: string) =>
      `/requests/${encodeURIComponent(requestId)}/attachments/${encodeURIComponent(attachmentId)}`,
  },
  // The member's own account; its later sections will be pages under /account.
  { name: 'Account', pattern: '/account', guard: 'auth' },
  { name: 'AccountData', pattern: '/account/data', guard: 'auth' },
  /** The member's data as one JSON file, straight from the API. */
  { name: 'AccountDataExport', pattern: '/account/data/export', guard: 'auth', endpoint: true },
  /**
   * The embedded API's file storage (signed upload and download addresses); its signatures are the
   * guard.
   */
  {
    name: 'Storage',
    pattern: '/storage/:area/:token',
    guard: 'public',
    maxBodyBytes: uploadBodyLimitBytes,
    fullBodyLimitWithoutSession: true,
    endpoint: true,
  },
  // The gallery's stand-in storage target takes whole files.
  {
    name: 'KitGallery',
    pattern: '/kit{/*}?',
    guard: 'kit-gallery',
    maxBodyBytes: uploadBodyLimitBytes,
    fullBodyLimitWithoutSession: true,
  },
  { name: 'OutboxViewer', pattern: '/dev/outbox', guard: 'outbox-viewer' },
  { name: 'Health', pattern: '/healthz', guard: 'public', endpoint: true },
  { name: 'Ready', pattern: '/readyz', guard: 'public', endpoint: true },
  /**
   * Where signing out lands: the answer that signs out clears the site's cookies
   * (`Clear-Site-Data`), the toast's among them, so the toast is left here, after the clearing.
   */
  { name: 'SignedOut', pattern: '/signed-out', guard: 'public', endpoint: true },
  /** Where deleting the account lands, for the same reason as SignedOut. */
  { name: 'AccountDeleted', pattern: '/account-deleted', guard: 'public', endpoint: true },
  /**
   * Browsers post Content-Security-Policy violations here (the policy's `report-to` and
   * `report-uri`); they are logged and change nothing, so no XSRF token is asked for.
   */
  {
    name: 'CspReports',
    pattern: '/csp-reports',
    guard: 'public',
    maxBodyBytes: cspReportBodyLimitBytes,
    endpoint: true,
  },
  /** The editor of the welcome pages, partner offers and terms (the README's editors' section). */
  { name: 'ContentEditor', pattern: '/keystatic{/*}?', guard: 'content-editor' },
  /** What the editor reads and saves through: files under `src/content/`, or GitHub's sign-in. */
  {
    name: 'ContentEditorApi',
    pattern: '/api/keystatic/*',
    guard: 'content-editor',
    endpoint: true,
  },
] as const satisfies readonly PageRoute[];

/** A pattern with a parameter, an optional part or a wildcard: no one address. */
const variablePattern = /[:{*(]/;

type PageRow = (typeof pageRoutes)[number];
type FixedPattern<Pattern> = Pattern extends `${string}${':' | '{' | '*' | '('}${string}`
  ? never
  : Pattern;
type PathOf<Row> = Row extends { readonly path: infer Path }
  ? Path
  : Row extends { readonly pattern: infer Pattern }
    ? FixedPattern<Pattern>
    : never;

/**
 * Where each page lives, for links and redirects, by its name with a small first letter
 * (`paths.accountSecurity`, `paths.request(id)`): a row's `path` builder, or its fixed pattern.
 */
export const paths = Object.fromEntries(
  pageRoutes.flatMap((route: PageRoute) => {
    const path = route.path ?? (variablePattern.test(route.pattern) ? undefined : route.pattern);
    return path === undefined
      ? []
      : [[route.name.charAt(0).toLowerCase() + route.name.slice(1), path]];
  }),
) as {
  readonly [
    Row in PageRow as [PathOf<Row>] extends [never] ? never : Uncapitalize<Row['name']>
  ]: PathOf<Row>;
};

/** A permanent move from an address the old product used. */
interface LegacyRedirect {
  readonly pattern: string;
  /** Builds the new path from the matched parameters. */
  readonly to: (params: Readonly<Record<string, string | undefined>>) => string;
}

/**
 * Checked before the pages, so `/requests/new` never reads as a request id.
 * The unlock forms accept an optional numeric user id suffix, which is dropped.
 */
export const legacyRedirects: readonly LegacyRedirect[] = [
  {
    pattern: '/:unlockToken/unlock{/:userId(\\d+)}?',
    to: ({ unlockToken = '' }) => `/unlock/${encodeURIComponent(unlockToken)}`,
  },
  {
    pattern: '/reset-password/:unlockToken/unlock{/:userId(\\d+)}?',
    to: ({ unlockToken = '' }) => `/unlock/${encodeURIComponent(unlockToken)}`,
  },
  { pattern: '/life_concierge_requests', to: () => '/requests' },
  { pattern: '/life_concierge_requests/new', to: () => '/dashboard' },
  { pattern: '/requests/new', to: () => '/dashboard' },
  { pattern: '/users/sign_up{/:companySlug}?', to: () => '/sign-up' },
];

/** `/products/{x}` and its alias `/additional-information/{x}`. */
export const partnerRedirectPatterns = [
  '/products/:slug',
  '/additional-information/:slug',
] as const;

/**
 * The route parameters that logs and error reports may show as they are. Every other parameter,
 * and every wildcard, is a secret: wherever an address is logged or reported its value is
 * `[redacted]` (src/lib/token-redaction.ts), so a route added with a token in its path is covered
 * without a word here, and one added with an id shows `[redacted]` until its name is added.
 */
export const loggableRouteParameters: ReadonlySet<string> = new Set([
  'companySlug',
  'categoryId',
  'requestId',
  'attachmentId',
  'userId',
  'area',
  'slug',
]);

/**
 * The routes Astro itself needs that the table does not list: the pages it renders for errors
 * (an unknown address gets the NotFound page through the middleware again) and the actions
 * islands call. Any other route Astro matches must be in the table.
 */
const astroOwnRoutePatterns: ReadonlySet<string> = new Set(['/404', '/500', '/_actions/[...path]']);

export const isAstroOwnRoute = (routePattern: string): boolean =>
  astroOwnRoutePatterns.has(routePattern);

/** The paths whose first visits get copies of one answer (see {@link PageRoute.firstVisitCopies}). */
export const firstVisitCopyPaths: readonly string[] = pageRoutes
  .filter((route: PageRoute) => route.firstVisitCopies)
  .map(({ pattern }) => {
    if (variablePattern.test(pattern))
      throw new Error(`${pattern}: first-visit copies need a fixed path`);
    return pattern;
  });

/**
 * A page a member sees signed in. These link one stylesheet, which the pages before sign-in fetch
 * ahead, where every other page carries its styles inline
 * (src/astro-adjustments/build/member-stylesheet.mjs), and keep to a smaller HTML budget.
 */
export const isSignedInPage = (route: PageRoute): boolean =>
  route.guard === 'auth' && !route.endpoint && !route.redirectTo;

/** The patterns of the {@link isSignedInPage signed-in pages}. */
export const signedInPagePatterns: readonly string[] = pageRoutes
  .filter(isSignedInPage)
  .map(({ pattern }) => pattern);
