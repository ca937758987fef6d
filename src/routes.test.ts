import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchRoute } from './route-matching';
import { isAstroOwnRoute, pageRoutes, paths, type RouteName } from './routes';
import { PARTNER_OFFER_IDS } from '../contract/partner-offers.ts';

const pageAt = (pathname: string) => {
  const match = matchRoute(pathname);
  return match.kind === 'page'
    ? { name: match.route.name, guard: match.route.guard, params: match.params }
    : match;
};

describe('the route table', () => {
  it.each<[string, RouteName, string, Record<string, string>]>([
    ['/', 'Root', 'public', {}],
    ['/welcome', 'Welcome', 'auth', {}],
    ['/welcome/about-us', 'AboutUs', 'auth', {}],
    ['/welcome/about-you', 'AboutYou', 'auth', {}],
    ['/welcome/contact-info', 'ContactInfo', 'auth', {}],
    ['/sign-in', 'SignIn', 'guest', {}],
    ['/sign-up', 'SignUp', 'public', {}],
    ['/sign-up/acme', 'SignUp', 'public', { companySlug: 'acme' }],
    ['/forgot-password', 'ForgotPassword', 'public', {}],
    ['/reset-password/abc123', 'ResetPassword', 'public', { resetToken: 'abc123' }],
    ['/mfa-enrollment', 'MfaEnrollment', 'mfa-step', {}],
    ['/unlock/tok3n', 'UnlockUser', 'public', { unlockToken: 'tok3n' }],
    ['/terms', 'Terms', 'public', {}],
    ['/dashboard', 'Dashboard', 'auth', {}],
    ['/requests', 'Requests', 'auth', {}],
    ['/requests/42', 'Request', 'auth', { requestId: '42' }],
    ['/requests/category/7', 'RequestCategory', 'auth', { categoryId: '7' }],
    [
      '/requests/42/attachments/9',
      'RequestAttachment',
      'auth',
      { requestId: '42', attachmentId: '9' },
    ],
    ['/account', 'Account', 'auth', {}],
    ['/storage/uploads/abc.def', 'Storage', 'public', { area: 'uploads', token: 'abc.def' }],
    ['/signed-out', 'SignedOut', 'public', {}],
    ['/csp-reports', 'CspReports', 'public', {}],
    ['/keystatic', 'ContentEditor', 'content-editor', {}],
    [
      '/keystatic/singleton/aboutUs',
      'ContentEditor',
      'content-editor',
      { '0': 'singleton/aboutUs' },
    ],
    ['/api/keystatic/update', 'ContentEditorApi', 'content-editor', { '0': 'update' }],
  ])('resolves %s to %s with the %s guard', (pathname, name, guard, params) => {
    expect(pageAt(pathname)).toEqual({ name, guard, params });
  });

  it('sends /welcome on to AboutUs once its guard lets the visitor through', () => {
    expect(pageRoutes.find((route) => route.name === 'Welcome')).toMatchObject({
      redirectTo: '/welcome/about-us',
    });
  });

  it('marks the routes that answer with a file or a check, not a page, as endpoints', () => {
    const endpoints = pageRoutes.filter((route) => 'endpoint' in route).map(({ name }) => name);
    expect(endpoints).toEqual([
      'CompanySignInCallback',
      'CompanySignInSamlAcs',
      'CompanySignInSamlMetadata',
      'RequestAttachment',
      'AccountDataExport',
      'Storage',
      'Health',
      'Ready',
      'SignedOut',
      'AccountDeleted',
      'CspReports',
      'ContentEditorApi',
    ]);
  });

  it('tolerates one trailing slash', () => {
    expect(pageAt('/dashboard/')).toMatchObject({ name: 'Dashboard' });
  });

  it.each([
    '/dashboard/extra',
    '/sign-up/acme/extra',
    '/reset-password',
    '/unlock',
    '/sign-in//',
    '//dashboard',
    '/DASHBOARD',
    '/nowhere',
  ])('does not match %s to any page', (pathname) => {
    expect(matchRoute(pathname)).toEqual({ kind: 'not-found' });
  });
});

describe('the legacy redirects', () => {
  it.each([
    ['/abc/unlock', '/unlock/abc'],
    ['/abc/unlock/123', '/unlock/abc'],
    ['/reset-password/abc/unlock', '/unlock/abc'],
    ['/reset-password/abc/unlock/9', '/unlock/abc'],
    ['/life_concierge_requests', '/requests'],
    ['/life_concierge_requests/new', '/dashboard'],
    ['/requests/new', '/dashboard'],
    ['/users/sign_up', '/sign-up'],
    ['/users/sign_up/acme', '/sign-up'],
  ])('moves %s to %s', (pathname, location) => {
    expect(matchRoute(pathname)).toEqual({ kind: 'legacy', location });
  });

  it('accepts only a numeric user id after an unlock token', () => {
    expect(matchRoute('/abc/unlock/x1')).toEqual({ kind: 'not-found' });
  });
});

describe('the partner redirects', () => {
  it.each(
    PARTNER_OFFER_IDS.flatMap((slug) => [`/products/${slug}`, `/additional-information/${slug}`]),
  )('sends %s to its partner', (pathname) => {
    expect(matchRoute(pathname)).toMatchObject({ kind: 'partner' });
  });

  it('lists exactly the seven offers of the specification', () => {
    expect([...PARTNER_OFFER_IDS].sort()).toEqual(
      [
        'auto-insurance',
        'home-insurance',
        'home-warranty',
        'pet-insurance',
        'renters-insurance',
        'term-life-insurance',
        'wills-and-trusts',
      ].sort(),
    );
  });

  it.each(['/products/unknown', '/additional-information/https:%2F%2Fevil.example', '/products/'])(
    'answers %s with not found, never a redirect',
    (pathname) => {
      expect(matchRoute(pathname)).toEqual({ kind: 'not-found' });
    },
  );
});

describe('the pages directory', () => {
  const pagesDir = path.resolve(import.meta.dirname, 'pages');
  const files = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.(astro|ts)$/.test(file),
  );

  it('has no page file that the route table does not know', () => {
    const unknown = files
      .filter((file) => !/^(404|500)\.astro$/.test(file))
      .map((file) => `/${file.replace(/\\/g, '/').replace(/(\/index)?\.(astro|ts)$/, '')}`)
      .map((route) => route.replace(/\[\.\.\.(\w+)\]|\[(\w+)\]/g, 'sample'))
      .filter((route) => matchRoute(route === '/index' ? '/' : route).kind !== 'page');
    expect(unknown).toEqual([]);
  });
});

describe('isAstroOwnRoute', () => {
  it('lets through only the error pages and the action calls Astro itself serves', () => {
    for (const pattern of ['/404', '/500', '/_actions/[...path]']) {
      expect(isAstroOwnRoute(pattern), pattern).toBe(true);
    }
  });

  it('knows no page file of the product, nor Astro’s other endpoints, so they are not found', () => {
    for (const pattern of ['/hello', '/dashboard', '/_image', '/_server-islands/[name]']) {
      expect(isAstroOwnRoute(pattern), pattern).toBe(false);
    }
  });
});

describe('paths, the links to pages', () => {
  it('lead each page to its own row, with its parameters encoded', () => {
    expect(pageAt(paths.accountSecurity)).toMatchObject({ name: 'AccountSecurity' });
    expect(pageAt(paths.signUp)).toMatchObject({ name: 'SignUp', params: {} });
    expect(paths.request('a b')).toBe('/requests/a%20b');
    expect(pageAt(paths.request('r-1'))).toMatchObject({
      name: 'Request',
      params: { requestId: 'r-1' },
    });
    expect(pageAt(paths.requestCategory('travel'))).toMatchObject({ name: 'RequestCategory' });
    expect(pageAt(paths.requestAttachment('r-1', 'f-1'))).toMatchObject({
      name: 'RequestAttachment',
      params: { requestId: 'r-1', attachmentId: 'f-1' },
    });
  });

  it('name no page whose pattern has a parameter and no builder', () => {
    expect(Object.keys(paths)).not.toContain('resetPassword');
    expect(Object.keys(paths)).not.toContain('kitGallery');
  });
});
