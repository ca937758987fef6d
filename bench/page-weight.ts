/**
 * What a first visit to each page of the route table weighs, and the byte budgets it is held to.
 * Shared by `npm run bench` (bench/run.mjs) and the byte-budget browser test
 * (tests/e2e/byte-budgets.spec.ts), so that the two never measure differently.
 *
 * Pages are read over HTTP from a running production server, as a browser without a cache would:
 * the document, then every script (inline ones, and modules with all their static and dynamic
 * imports), stylesheet, icon, image and font it refers to. Only the server's own origin is asked.
 * The modules of {@link onDemandModules}, which only a visitor's own request loads, are weighed
 * apart.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { isSignedInPage, pageRoutes, type PageRoute, type RouteName } from '../src/routes.ts';
import {
  importsOf,
  inlineScriptsOf,
  modulesFoundLate,
  otherReferences,
  scriptReferencesOf,
  staticImportsOf,
  stylesheetAssetsOf,
  prefetchedStylesheetsOf,
  stylesheetFindings,
  stylesheetReferencesOf,
  type StylesheetFindings,
} from './page-references.ts';

const kilobyte = 1024;

/** The byte budgets of docs/PRODUCT.md §14. */
export const budgets = {
  /** JavaScript, gzip, everything the page loads: pages without islands. */
  javaScriptWithoutIslands: 3 * kilobyte,
  /** JavaScript for the pages a visitor sees before the portal (sign-in, sign-up, reset, MFA). */
  javaScriptSignInFamily: 75 * kilobyte,
  /** JavaScript for the signed-in pages. */
  javaScriptSignedIn: 100 * kilobyte,
  /** The document, compressed: it fits the first round trips of a new connection. */
  html: 14 * kilobyte,
  /**
   * A signed-in page's document, uncompressed: what the server renders and compresses on every
   * view it cannot send again, its styles in the stylesheet it links.
   */
  signedInHtmlUncompressed: 35 * kilobyte,
  /** Everything the sign-in page transfers, compressed as served. */
  signInTransferred: 100 * kilobyte,
  /**
   * What the browser's error-reporting client adds to any page when the server has a DSN, on top
   * of the route's own budget: errors only, session replay (loaded later) not included.
   */
  monitoringClient: 30 * kilobyte,
} as const;

/**
 * Scripts are weighed as a browser that accepts only gzip receives them: hashed assets are served
 * from the copies scripts/precompress.mjs writes at this level.
 */
const gzipAsServed = { level: constants.Z_BEST_COMPRESSION };

/** The bytes a script takes as the server sends it to a browser that accepts only gzip. */
export function gzipBytesAsServed(code: string): number {
  return gzipSync(code, gzipAsServed).length;
}

/** Text bodies smaller than this may go uncompressed (the server's threshold): framing costs more. */
const compressionThreshold = 1024;

/** Who visits: the browser state a page is measured in. */
export type Visitor =
  /** No session. */
  | 'signed out'
  /** No session, with the "signed out" toast waiting from the sign-out just before. */
  | 'signed out, toast after sign-out'
  /** The demo member: signed in, no MFA step pending. */
  | 'member'
  /** Signed in as a member of a company that requires MFA, without a phone yet. */
  | 'MFA enrollment required'
  /** Signed in as a member with a phone, the texted code not yet entered. */
  | 'MFA verification pending'
  /**
   * Signed in as a member with an authenticator app (and recovery codes), its code not yet
   * entered: a new account the demo preparation sets up, as a member does.
   */
  | 'MFA app code pending'
  /** The same with a passkey, which the step then offers first. */
  | 'MFA passkey pending';

/** One page in one state, as the bench and the byte-budget check visit it. */
export interface PlannedVisit {
  /** A route of the table, or NotFound: any other path. */
  readonly route: RouteName | 'NotFound';
  /** Who visits, and anything else that sets the page apart (a tab, a parameter left out). */
  readonly state: string;
  readonly visitor: Visitor;
  /** The address to visit, once the demo data is known. */
  readonly path: (demo: DemoData) => string;
  /** Whether the route belongs to the signed-in portal (its JavaScript and HTML budgets). */
  readonly signedInPage: boolean;
  /** 200, or 404 for NotFound: anything else (a redirect, an error) is not the page. */
  readonly status: number;
}

/** A route of the table that has no page state of its own to weigh, and why. */
export interface UnmeasuredRoute {
  readonly route: RouteName;
  readonly reason: string;
}

/** Real values from the demo data for the parameters of the route table's patterns. */
export interface DemoData {
  readonly origin: string;
  /** The `Cookie` header of each visitor. */
  readonly cookies: Readonly<Record<Visitor, string>>;
  readonly parameters: Readonly<Record<string, string>>;
}

/** Which visitors see each guard's page (rather than being sent elsewhere). */
const visitorsByGuard: Readonly<Record<PageRoute['guard'], readonly Visitor[]>> = {
  public: ['signed out', 'member'],
  guest: ['signed out', 'signed out, toast after sign-out', 'MFA verification pending'],
  'mfa-step': [
    'MFA enrollment required',
    'MFA verification pending',
    'MFA app code pending',
    'MFA passkey pending',
  ],
  auth: ['member'],
  'kit-gallery': [],
  'outbox-viewer': [],
  // Editors', not members': absent from the production build the bench measures.
  'content-editor': [],
};

/** States that a query string gives a page, beyond its visitors. */
const queryStates: Partial<Record<RouteName, readonly { state: string; query: string }[]>> = {
  Requests: [{ state: 'closed tab', query: '?tab=Closed' }],
  MfaEnrollment: [{ state: 'recovery', query: '?method=recovery_code' }],
};

/**
 * Every page state of the route table (src/routes.ts) worth weighing, then NotFound, and the
 * routes left out with the reason. Optional parameters are visited both with and without a value.
 */
export function planVisits(routes: readonly PageRoute[] = pageRoutes): {
  visits: PlannedVisit[];
  unmeasured: UnmeasuredRoute[];
} {
  const visits: PlannedVisit[] = [];
  const unmeasured: UnmeasuredRoute[] = [];
  for (const route of routes) {
    const reason = whyUnmeasured(route);
    if (reason) {
      unmeasured.push({ route: route.name, reason });
      continue;
    }
    const signedInPage = isSignedInPage(route);
    const variants = patternVariants(route.pattern);
    for (const visitor of visitorsByGuard[route.guard]) {
      for (const variant of variants) {
        const state = [visitor, variant.note].filter(Boolean).join(', ');
        visits.push({
          route: route.name,
          state,
          visitor,
          signedInPage,
          status: 200,
          path: (demo) => fillPattern(variant.pattern, demo.parameters),
        });
      }
      for (const { state, query } of queryStates[route.name] ?? []) {
        visits.push({
          route: route.name,
          state: `${visitor}, ${state}`,
          visitor,
          signedInPage,
          status: 200,
          path: (demo) => `${fillPattern(route.pattern, demo.parameters)}${query}`,
        });
      }
    }
  }
  for (const visitor of ['signed out', 'member'] as const) {
    visits.push({
      route: 'NotFound',
      state: visitor,
      visitor,
      signedInPage: false,
      status: 404,
      path: () => '/no-such-page',
    });
  }
  return { visits, unmeasured };
}

function whyUnmeasured(route: PageRoute): string | undefined {
  if (route.endpoint) return 'not a page: it answers with a file, a redirect or a status';
  if (route.name === 'Root') return 'redirects to SignIn or the Dashboard (docs/PRODUCT.md §2)';
  if (route.redirectTo) return `redirects to ${route.redirectTo}`;
  if (route.guard === 'content-editor') {
    return 'the content editors’ editor: only under npm run dev, or in a build made for GitHub mode';
  }
  if (visitorsByGuard[route.guard].length === 0) {
    return 'a development page, never served in production';
  }
  return undefined;
}

/** An optional segment `{/:name}?` gives two addresses: with the parameter and without it. */
function patternVariants(pattern: string): { pattern: string; note: string }[] {
  const optional = /\{\/:(\w+)\}\?/.exec(pattern);
  if (!optional) return [{ pattern, note: '' }];
  const name = optional[1] ?? '';
  return [
    { pattern: pattern.replace(optional[0], ''), note: `no ${name}` },
    { pattern: pattern.replace(optional[0], `/:${name}`), note: `with ${name}` },
  ];
}

/** Puts real values into a URLPattern pathname; a parameter without a demo value is an error. */
export function fillPattern(pattern: string, parameters: Readonly<Record<string, string>>): string {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const value = parameters[name];
    if (value === undefined) throw new Error(`No demo value for the parameter :${name}`);
    return encodeURIComponent(value);
  });
}

/** The JavaScript budget of a page. */
export function javaScriptBudget(visit: PlannedVisit, weight: PageWeight): number {
  if (!weight.hasIslands) return budgets.javaScriptWithoutIslands;
  return visit.signedInPage ? budgets.javaScriptSignedIn : budgets.javaScriptSignInFamily;
}

/**
 * Modules that no page loads by itself: only a visitor's request does. They are weighed apart from
 * the page, in {@link PageWeight.onDemandJavaScriptGzipBytes}; the browser tests that each is not
 * fetched before that request (tests/e2e/passkeys.spec.ts).
 */
export const onDemandModules: readonly RegExp[] = [
  // WebAuthn: a click on a passkey button, or the first focus of SignIn's email field.
  /\/passkey-ceremonies[.-][\w-]+\.js$/,
];

/** What a first visit to a page costs. Byte counts are of the bodies. */
export interface PageWeight {
  readonly status: number;
  /** The document, compressed as served. */
  readonly htmlBytes: number;
  /** How the document was compressed (`br`, `gzip`, or `none`). */
  readonly htmlEncoding: string;
  /** The document as the browser reads it, uncompressed. */
  readonly htmlUncompressedBytes: number;
  /** Every script the page loads, inline ones included, each gzipped on its own. */
  readonly javaScriptGzipBytes: number;
  /** The modules of {@link onDemandModules} the page may load at a visitor's request, gzipped. */
  readonly onDemandJavaScriptGzipBytes: number;
  /** Stylesheets, those fetched ahead for the next page included, compressed as served. */
  readonly cssBytes: number;
  /** Everything transferred: document, scripts, stylesheets, icons, images, fonts, as served. */
  readonly transferredBytes: number;
  /** The document and each distinct file it loads. */
  readonly requests: number;
  readonly hasIslands: boolean;
  /** Text responses above the compression threshold that came uncompressed. */
  readonly uncompressed: readonly string[];
  /** What holds the page back and what its styles lack: {@link stylesheetFindings}. */
  readonly styles: StylesheetFindings;
  /**
   * Modules the page's scripts need that the browser would find only once another module had
   * arrived: {@link modulesFoundLate}. None, when every island and held script lists what it needs.
   */
  readonly modulesFoundLate: readonly string[];
}

export interface Fetched {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly wireBytes: number;
  readonly encoding: string;
  readonly body: string;
}

/** One GET as a browser sends it (brotli or gzip accepted), with the bytes that crossed the wire. */
export function get(
  url: string,
  cookie = '',
  extraHeaders: Record<string, string> = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': 'br, gzip', ...extraHeaders };
    if (cookie) headers['cookie'] = cookie;
    const outgoing = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'] ?? 'none';
        const body =
          encoding === 'br'
            ? brotliDecompressSync(raw)
            : encoding === 'gzip'
              ? gunzipSync(raw)
              : raw;
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          wireBytes: raw.length,
          encoding,
          body: body.toString('utf8'),
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Addresses on the page's own origin only: nothing else is ever fetched. */
function sameOrigin(address: string, base: string, origin: string): string | undefined {
  const url = new URL(address, base);
  return url.origin === origin ? url.href : undefined;
}

/** Weighs one page as a first visit with the given cookies. Redirects are not followed. */
export async function measurePage(origin: string, path: string, cookie = ''): Promise<PageWeight> {
  const documentUrl = new URL(path, origin).href;
  const page = await get(documentUrl, cookie);
  const html = page.body;
  const uncompressed: string[] = [];
  const noteCompression = (url: string, fetched: Fetched) => {
    if (fetched.encoding === 'none' && Buffer.byteLength(fetched.body) >= compressionThreshold) {
      uncompressed.push(new URL(url).pathname);
    }
  };
  noteCompression(documentUrl, page);

  let javaScriptGzipBytes = 0;
  for (const code of inlineScriptsOf(html)) javaScriptGzipBytes += gzipBytesAsServed(code);

  const fetchedUrls = new Set<string>();
  let transferredBytes = page.wireBytes;
  const fetchOnce = async (url: string): Promise<Fetched | undefined> => {
    if (fetchedUrls.has(url)) return undefined;
    fetchedUrls.add(url);
    const fetched = await get(url, cookie);
    if (fetched.status !== 200) throw new Error(`${url} answered ${fetched.status}`);
    transferredBytes += fetched.wireBytes;
    return fetched;
  };

  const pendingScripts = scriptReferencesOf(html).map((address) =>
    sameOrigin(address, documentUrl, origin),
  );
  const staticImportsByModule = new Map<string, string[]>();
  let onDemandJavaScriptGzipBytes = 0;
  while (pendingScripts.length > 0) {
    const url = pendingScripts.pop();
    if (!url) continue;
    const script = await fetchOnce(url);
    if (!script) continue;
    noteCompression(url, script);
    if (onDemandModules.some((pattern) => pattern.test(new URL(url).pathname))) {
      // Its own imports are the page's modules already (React, the kit) or on demand with it.
      onDemandJavaScriptGzipBytes += gzipBytesAsServed(script.body);
      continue;
    }
    javaScriptGzipBytes += gzipBytesAsServed(script.body);
    staticImportsByModule.set(
      url,
      staticImportsOf(script.body).map((address) => new URL(address, url).href),
    );
    for (const address of importsOf(script.body)) {
      pendingScripts.push(sameOrigin(address, url, origin));
    }
  }

  let cssBytes = 0;
  const assets: string[] = [];
  const linked = stylesheetReferencesOf(html).map((address) =>
    sameOrigin(address, documentUrl, origin),
  );
  const linkedCss: string[] = [];
  const pendingStylesheets = [
    ...linked,
    ...prefetchedStylesheetsOf(html).map((address) => sameOrigin(address, documentUrl, origin)),
  ];
  while (pendingStylesheets.length > 0) {
    const url = pendingStylesheets.pop();
    if (!url) continue;
    const stylesheet = await fetchOnce(url);
    if (!stylesheet) continue;
    noteCompression(url, stylesheet);
    cssBytes += stylesheet.wireBytes;
    if (linked.includes(url)) linkedCss.push(stylesheet.body);
    for (const address of stylesheetAssetsOf(stylesheet.body)) {
      const asset = sameOrigin(address, url, origin);
      if (asset?.endsWith('.css')) pendingStylesheets.push(asset);
      else if (asset) assets.push(asset);
    }
  }
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) {
    for (const address of stylesheetAssetsOf(match[1] ?? '')) {
      const asset = sameOrigin(address, documentUrl, origin);
      if (asset) assets.push(asset);
    }
  }
  for (const match of html.matchAll(otherReferences)) {
    const asset = sameOrigin(match[1] ?? match[2] ?? '', documentUrl, origin);
    if (asset) assets.push(asset);
  }
  for (const url of assets) {
    const asset = await fetchOnce(url);
    if (asset && /^(text\/|image\/svg)/.test(String(asset.headers['content-type']))) {
      noteCompression(url, asset);
    }
  }

  return {
    status: page.status,
    htmlBytes: page.wireBytes,
    htmlEncoding: page.encoding,
    htmlUncompressedBytes: Buffer.byteLength(html),
    javaScriptGzipBytes,
    onDemandJavaScriptGzipBytes,
    cssBytes,
    transferredBytes,
    requests: 1 + fetchedUrls.size,
    hasIslands: html.includes('<astro-island'),
    uncompressed,
    styles: stylesheetFindings(html, linkedCss),
    modulesFoundLate: modulesFoundLate(
      html,
      documentUrl,
      (module) => staticImportsByModule.get(module) ?? [],
    ),
  };
}

/** A budget a figure is held to, and whether it keeps it. */
export interface BudgetCheck {
  readonly figure: string;
  readonly value: number;
  readonly budget: number;
  readonly ok: boolean;
}

/** The byte budgets that apply to one weighed page. */
export function byteBudgetChecks(visit: PlannedVisit, weight: PageWeight): BudgetCheck[] {
  const check = (figure: string, value: number, budget: number): BudgetCheck => ({
    figure,
    value,
    budget,
    ok: value <= budget,
  });
  const checks = [
    check('JavaScript (gzip)', weight.javaScriptGzipBytes, javaScriptBudget(visit, weight)),
    check('HTML (compressed)', weight.htmlBytes, budgets.html),
    check('text responses sent uncompressed', weight.uncompressed.length, 0),
    check('modules found late', weight.modulesFoundLate.length, 0),
  ];
  if (visit.signedInPage) {
    checks.push(
      check('HTML (uncompressed)', weight.htmlUncompressedBytes, budgets.signedInHtmlUncompressed),
    );
  }
  if (visit.route === 'SignIn') {
    checks.push(check('bytes transferred', weight.transferredBytes, budgets.signInTransferred));
  }
  return checks;
}

/** `12.3 KB`. */
export const kilobytes = (bytes: number): string => `${(bytes / kilobyte).toFixed(1)} KB`;
