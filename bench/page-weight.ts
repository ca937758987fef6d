/**
 * What a first visit to each page of the route table weighs, and the byte budgets of
 * docs/PRODUCT.md §14 it is held to. Shared by `npm run bench` (bench/run.mjs) and the byte-budget
 * browser test (tests/e2e/byte-budgets.spec.ts), so that the two never measure differently.
 *
 * Pages are read over HTTP from a running production server, as a browser without a cache would:
 * the document, then every script (inline ones, and modules with all their static and dynamic
 * imports), stylesheet, icon, image and font it refers to. Only the server's own origin is asked.
 * The modules of {@link onDemandModules}, which only a visitor's own request loads, are weighed
 * apart.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { pageRoutes, type PageRoute, type RouteName } from '../src/routes.ts';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { totpCodeAt, totpStep } from '../api/services/factors/totp.ts';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { decodeActionData } from '../src/islands/island-actions.ts';
import { createSoftwareAuthenticator } from '../tests/support/software-authenticator.ts';
import { cookieHeaderOf, keepSetCookie, type CookieJar } from './cookie-jar.ts';

const kilobyte = 1024;

/** docs/PRODUCT.md §14. */
export const budgets = {
  /** JavaScript, gzip, everything the page loads: pages without islands. */
  javaScriptWithoutIslands: 3 * kilobyte,
  /** JavaScript for the pages a visitor sees before the portal (sign-in, sign-up, reset, MFA). */
  javaScriptSignInFamily: 75 * kilobyte,
  /** JavaScript for the signed-in pages. */
  javaScriptSignedIn: 100 * kilobyte,
  /** The document, compressed: it fits the first round trips of a new connection. */
  html: 14 * kilobyte,
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
  /** A route of the table, or NotFound: any other path (docs/PRODUCT.md §2). */
  readonly route: RouteName | 'NotFound';
  /** Who visits, and anything else that sets the page apart (a tab, a parameter left out). */
  readonly state: string;
  readonly visitor: Visitor;
  /** The address to visit, once the demo data is known. */
  readonly path: (demo: DemoData) => string;
  /** Whether the route belongs to the signed-in portal (its JavaScript budget). */
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
    const signedInPage = route.guard === 'auth';
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

/** The JavaScript budget of a page: docs/PRODUCT.md §14. */
export function javaScriptBudget(visit: PlannedVisit, weight: PageWeight): number {
  if (!weight.hasIslands) return budgets.javaScriptWithoutIslands;
  return visit.signedInPage ? budgets.javaScriptSignedIn : budgets.javaScriptSignInFamily;
}

/**
 * Modules that no page loads by itself: only a visitor's request does (docs/PRODUCT.md §14). They
 * are weighed apart from the page, in {@link PageWeight.onDemandJavaScriptGzipBytes}; the browser
 * tests that each is not fetched before that request (tests/e2e/passkeys.spec.ts).
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
  /** Every script the page loads, inline ones included, each gzipped on its own. */
  readonly javaScriptGzipBytes: number;
  /** The modules of {@link onDemandModules} the page may load at a visitor's request, gzipped. */
  readonly onDemandJavaScriptGzipBytes: number;
  /** Stylesheets, compressed as served. */
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

/** What a page's styles cost its first paint, and what they use without defining. */
export interface StylesheetFindings {
  /** Stylesheets the browser must fetch before it paints anything. */
  readonly renderBlocking: readonly string[];
  /** Custom properties the page's inline styles use, without a fallback, and define nowhere. */
  readonly undefinedCustomProperties: readonly string[];
}

/**
 * docs/PRODUCT.md §14: no page waits for a stylesheet (each carries its styles inline), and the
 * tokens the build leaves out of them (src/styles/prune-unused-tokens.mjs) are ones no style uses.
 */
export function stylesheetFindings(html: string): StylesheetFindings {
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)]
    .map((match) => match[1] ?? '')
    .join('\n');
  const defined = new Set([...styles.matchAll(/(--[\w-]+)\s*:/g)].map((match) => match[1]));
  const undefinedCustomProperties = new Set<string>();
  for (const [, name = '', fallback] of styles.matchAll(/var\(\s*(--[\w-]+)\s*(,)?/g)) {
    if (!fallback && !defined.has(name)) undefinedCustomProperties.add(name);
  }
  return {
    renderBlocking: [...html.matchAll(stylesheetReferences)].map((match) => match[1] ?? ''),
    undefinedCustomProperties: [...undefinedCustomProperties].sort(),
  };
}

interface Fetched {
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

const scriptReferences =
  /<script\b[^>]*\bsrc="([^"]+)"|\b(?:component-url|renderer-url|before-hydration-url|data-preload)="([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g;
const inlineScripts = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The scripts a document refers to, as written: script elements, the modules of islands (their
 * component, renderer and before-hydration modules, and the modules they list to import with
 * them) and module preloads.
 */
export function scriptReferencesOf(html: string): string[] {
  return [...html.matchAll(scriptReferences)].flatMap((match) =>
    (match[1] ?? match[2] ?? match[3] ?? '').split(' ').filter(Boolean),
  );
}

/** The code of a document's inline scripts, empty ones left out. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(inlineScripts)]
    .map((match) => match[1] ?? '')
    .filter((code) => code.trim());
}
const stylesheetReferences = /<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"/g;
const otherReferences =
  /<link\b(?=[^>]*\brel="(?:icon|apple-touch-icon|preload)")[^>]*\bhref="([^"]+)"|<img\b[^>]*\bsrc="([^"]+)"/g;

/**
 * The modules a script imports: `import … from "x"`, `import "x"` and `import("x")`, relative
 * or from the site's root, in any quotes.
 */
export function importsOf(code: string): string[] {
  const found = code.matchAll(
    /(?:\bfrom|\bimport)\s*\(?\s*(["'`])((?:\.{1,2})?\/[^"'`\s]+\.m?js)\1/g,
  );
  return [...found].map((match) => match[2] ?? '');
}

/** The modules a script imports statically (`import … from "x"`, `import "x"`): it needs them to run. */
export function staticImportsOf(code: string): string[] {
  const found = code.matchAll(/(?:\bfrom|\bimport)\s*(["'`])((?:\.{1,2})?\/[^"'`\s]+\.m?js)\1/g);
  return [...found].map((match) => match[2] ?? '');
}

const islandElements = /<astro-island\b[^>]*>/g;
const heldScriptTemplates =
  /<template\b[^>]*\bdata-after-first-paint\b[^>]*>([\s\S]*?)<\/template>/g;
const modulePreloads = /<link\b(?=[^>]*\brel="modulepreload")[^>]*\bhref="([^"]+)"/g;
const moduleScripts = /<script\b[^>]*\bsrc="([^"]+)"/g;

function attributeOf(element: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1];
}

/** Modules the browser asks for together, and the module preloads that go with them. */
interface ModulesAskedTogether {
  readonly own: readonly string[];
  readonly listed: readonly string[];
}

/**
 * What a document starts at one moment: each island when it hydrates (its component and renderer,
 * and what its `data-preload` lists: src/hydration/preload-island-modules.ts), the scripts held
 * until the first paint with the preloads beside them (src/components/AfterFirstPaint.astro), and
 * the document's other module scripts with its own preloads.
 */
function modulesAskedTogether(html: string): ModulesAskedTogether[] {
  const groups: ModulesAskedTogether[] = [];
  for (const [island] of html.matchAll(islandElements)) {
    groups.push({
      own: ['component-url', 'renderer-url'].flatMap((name) => attributeOf(island, name) ?? []),
      listed: (attributeOf(island, 'data-preload') ?? '').split(' ').filter(Boolean),
    });
  }
  const addressesIn = (part: string, pattern: RegExp) =>
    [...part.matchAll(pattern)].map((match) => match[1] ?? '');
  for (const [, held = ''] of html.matchAll(heldScriptTemplates)) {
    groups.push({
      own: addressesIn(held, moduleScripts),
      listed: addressesIn(held, modulePreloads),
    });
  }
  const rest = html.replace(heldScriptTemplates, '');
  groups.push({ own: addressesIn(rest, moduleScripts), listed: addressesIn(rest, modulePreloads) });
  return groups;
}

/**
 * docs/PRODUCT.md §14: every module an island needs is asked for at once when it starts to
 * hydrate, and so is every module a held script needs when it starts. The browser asks for the
 * modules a page names ({@link modulesAskedTogether}); any other module they import, statically
 * and all the way down, it would find only once its importer had arrived. Returns those, by
 * path, for the whole document.
 *
 * @param staticImports the addresses a module (by address) imports statically
 */
export function modulesFoundLate(
  html: string,
  documentUrl: string,
  staticImports: (moduleUrl: string) => readonly string[],
): string[] {
  const late = new Set<string>();
  const absolute = (address: string) => new URL(address, documentUrl).href;
  for (const group of modulesAskedTogether(html)) {
    const listed = new Set(group.listed.map(absolute));
    const seen = new Set(group.own.map(absolute));
    const pending = [...seen];
    while (pending.length > 0) {
      const module = pending.pop() ?? '';
      for (const imported of staticImports(module)) {
        if (seen.has(imported)) continue;
        seen.add(imported);
        pending.push(imported);
        if (!listed.has(imported)) late.add(new URL(imported).pathname);
      }
    }
  }
  return [...late].sort();
}

/** The addresses a stylesheet loads: `@import` and `url()`, data URLs left out. */
export function stylesheetAssetsOf(css: string): string[] {
  const found = css.matchAll(/url\(\s*(["']?)([^"')]+)\1\s*\)|@import\s+(["'])([^"']+)\3/g);
  return [...found]
    .map((match) => match[2] ?? match[4] ?? '')
    .filter((address) => address && !address.startsWith('data:') && !address.startsWith('#'));
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
  const pendingStylesheets = [...html.matchAll(stylesheetReferences)].map((match) =>
    sameOrigin(match[1] ?? '', documentUrl, origin),
  );
  while (pendingStylesheets.length > 0) {
    const url = pendingStylesheets.pop();
    if (!url) continue;
    const stylesheet = await fetchOnce(url);
    if (!stylesheet) continue;
    noteCompression(url, stylesheet);
    cssBytes += stylesheet.wireBytes;
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
    javaScriptGzipBytes,
    onDemandJavaScriptGzipBytes,
    cssBytes,
    transferredBytes,
    requests: 1 + fetchedUrls.size,
    hasIslands: html.includes('<astro-island'),
    uncompressed,
    styles: stylesheetFindings(html),
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

/** The byte budgets of docs/PRODUCT.md §14 that apply to one weighed page. */
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
  if (visit.route === 'SignIn') {
    checks.push(check('bytes transferred', weight.transferredBytes, budgets.signInTransferred));
  }
  return checks;
}

/** `12.3 KB`. */
export const kilobytes = (bytes: number): string => `${(bytes / kilobyte).toFixed(1)} KB`;

/** The demo accounts of api/db/seed.ts behind each signed-in visitor. */
const accountOf = {
  member: 'member@example.com',
  'MFA enrollment required': 'secure@example.com',
  'MFA verification pending': 'verified@example.com',
} as const;

/**
 * Only asks for a reset link, never uses it: an account no browser journey on a shared server
 * resets, so the per-account limit on reset links is never in anyone's way.
 */
const resetAccount = 'concierge@example.com';

/**
 * Signs in the demo visitors and finds real parameter values: a request and a category of the
 * demo member (from the Dashboard, as the member finds them), a reset token from an emailed link
 * (the server must serve the outbox viewer), an unlock token of a real one's shape (the page does
 * not look it up until its button is pressed, and a real one needs a locked account).
 */
/**
 * The demo member's request a request's pages are weighed and measured on: open, with notes from
 * both sides and a file (api/db/seed.ts).
 */
const weighedRequestTitle = 'A pediatric dentist near home';

export async function prepareDemo(origin: string, password: string): Promise<DemoData> {
  const member = await signIn(origin, accountOf.member, password);
  const signedOut = await signIn(origin, accountOf.member, password);
  const cookies: Record<Visitor, string> = {
    'signed out': '',
    'signed out, toast after sign-out': await signOut(origin, signedOut),
    member: cookieHeaderOf(member),
    'MFA enrollment required': cookieHeaderOf(
      await signIn(origin, accountOf['MFA enrollment required'], password),
    ),
    'MFA verification pending': cookieHeaderOf(
      await signIn(origin, accountOf['MFA verification pending'], password),
    ),
    'MFA app code pending': cookieHeaderOf(await signInWithApp(origin)),
    'MFA passkey pending': cookieHeaderOf(await signInWithPasskey(origin)),
  };

  const dashboard = await get(`${origin}/dashboard`, cookies.member);
  const requestId = new RegExp(
    `href="/requests/([0-9a-f-]{36})"[^>]*>${weighedRequestTitle}<`,
  ).exec(dashboard.body)?.[1];
  if (!requestId) {
    throw new Error(
      `The Dashboard links to no request "${weighedRequestTitle}" of the demo member`,
    );
  }
  const categoryId = /href="\/requests\/category\/([^"/?]+)"/.exec(dashboard.body)?.[1];
  if (!categoryId) throw new Error('The Dashboard links to no request category');

  return {
    origin,
    cookies,
    parameters: {
      companySlug: 'acme',
      requestId,
      categoryId: decodeURIComponent(categoryId),
      resetToken: await emailedResetToken(origin),
      unlockToken: randomBytes(32).toString('base64url'),
      // The page is the same for any token until its button is pressed, as the unlock page's.
      confirmationToken: randomBytes(32).toString('base64url'),
    },
  };
}

function keepCookies(jar: CookieJar, fetched: { headers: Fetched['headers'] }): void {
  const lines = fetched.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(lines) ? lines : [lines]) keepSetCookie(jar, line);
}

const xsrfOf = (jar: CookieJar): string =>
  [...jar].find(([name]) => name.endsWith('XSRF-TOKEN'))?.[1] ?? '';

/** Posts a form as the browser does without JavaScript (the same origin, the XSRF field). */
function postForm(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
  extraHeaders: Record<string, string> = {},
): Promise<Fetched> {
  const body = new URLSearchParams({ _xsrf: xsrfOf(jar), ...fields }).toString();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          ...extraHeaders,
          origin: new URL(url).origin,
          cookie: cookieHeaderOf(jar),
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            wireBytes: 0,
            encoding: 'none',
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Signs in through the form as a browser without JavaScript does; answers the cookies it got. */
export async function signIn(
  origin: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<CookieJar> {
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-in`, '', headers));
  const answer = await postForm(
    `${origin}/sign-in?_action=auth.signIn`,
    jar,
    { email, password },
    headers,
  );
  keepCookies(jar, answer);
  if (![...jar.keys()].some((name) => /^(__Host-)?session$/.test(name))) {
    throw new Error(`Signing in as ${email} failed (${answer.status})`);
  }
  return jar;
}

/**
 * A new member who sets up an authenticator app (its first code computed from the key the page
 * shows, as the member's phone would), then signs in again elsewhere, up to the app's code.
 */
async function signInWithApp(origin: string): Promise<CookieJar> {
  const email = `bench-app-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough passphrase';
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-up`));
  const steps: [string, Record<string, string>][] = [
    [
      '/sign-up?_action=auth.signUp',
      { name: 'Bench', last_name: 'App', email, password, terms_of_service: 'accepted' },
    ],
    ['/mfa-enrollment?_action=mfa.skip', {}],
  ];
  for (const [path, fields] of steps) {
    const answer = await postForm(`${origin}${path}`, jar, fields);
    keepCookies(jar, answer);
    if (answer.status >= 400) throw new Error(`${path} failed (${answer.status})`);
  }
  const setup = await postFormForPage(
    `${origin}/account/security?_action=account.setUpApp`,
    jar,
    {},
  );
  const key = /[A-Z2-7]{4}(?: [A-Z2-7]{4}){7}/.exec(setup)?.[0];
  if (!key) throw new Error('Setting up an authenticator app showed no key');
  const code = totpCodeAt(decodeBase32IgnorePadding(key.replaceAll(' ', '')), totpStep(new Date()));
  const confirmed = await postFormForPage(
    `${origin}/account/security?_action=account.confirmApp`,
    jar,
    { code },
  );
  if (!confirmed.includes('Your recovery codes')) {
    throw new Error('The authenticator app was not set up with recovery codes');
  }
  return signIn(origin, email, password);
}

/**
 * A new member who adds a passkey, as a member does (the device is a software authenticator),
 * then signs in again with the password: the MFA step offers the passkey.
 */
async function signInWithPasskey(origin: string): Promise<CookieJar> {
  const email = `bench-passkey-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough passphrase';
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/sign-up`));
  for (const [path, fields] of [
    [
      '/sign-up?_action=auth.signUp',
      { name: 'Bench', last_name: 'Passkey', email, password, terms_of_service: 'accepted' },
    ],
    ['/mfa-enrollment?_action=mfa.skip', {}],
  ] as const) {
    const answer = await postForm(`${origin}${path}`, jar, fields);
    keepCookies(jar, answer);
    if (answer.status >= 400) throw new Error(`${path} failed (${answer.status})`);
  }
  const { options } = (await islandCall(`${origin}/_actions/account.passkeyOptions/`, jar, {})) as {
    options: PublicKeyCredentialCreationOptionsJSON;
  };
  // Browsers refuse an IP address as a passkey's site: the portal serves a loopback as localhost.
  const passkeyOrigin = origin.replace('127.0.0.1', 'localhost');
  const credential = createSoftwareAuthenticator().register(options, passkeyOrigin);
  const added = (await islandCall(`${origin}/_actions/account.addPasskey/`, jar, {
    name: 'Bench device',
    credential: JSON.stringify(credential),
  })) as { recoveryCodes?: unknown };
  if (!Array.isArray(added.recoveryCodes)) {
    throw new Error('The passkey was not added with recovery codes');
  }
  return signIn(origin, email, password);
}

/** Calls an action as an island does (a passkey needs JavaScript), and reads its answer. */
async function islandCall(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
): Promise<unknown> {
  const answer = await postForm(url, jar, fields);
  keepCookies(jar, answer);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return decodeActionData(answer.body);
}

/** Posts a form whose answer is the page itself (no redirect), and keeps its cookies. */
async function postFormForPage(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
): Promise<string> {
  const answer = await postForm(url, jar, fields);
  keepCookies(jar, answer);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return answer.body;
}

/** Signs out with the portal's form; the cookies left: the toast waiting for the next page. */
async function signOut(origin: string, jar: CookieJar): Promise<string> {
  const answer = await postForm(`${origin}/dashboard?_action=auth.signOut`, jar, {});
  keepCookies(jar, answer);
  if ([...jar.keys()].some((name) => /^(__Host-)?session$/.test(name))) {
    throw new Error(`Signing out did not end the session (${answer.status})`);
  }
  // The answer clears the site's data, so the toast is set by the page it sends the browser to.
  const location = answer.headers.location;
  if (typeof location !== 'string') throw new Error(`Signing out went nowhere (${answer.status})`);
  const jarBeforeToast = jar.size;
  keepCookies(jar, await get(new URL(location, origin).href, cookieHeaderOf(jar)));
  if (jar.size === jarBeforeToast) {
    throw new Error(`Signing out left no toast for the next page (${location})`);
  }
  return cookieHeaderOf(jar);
}

/** Asks for a reset link and reads its token from the outbox viewer, as from an inbox. */
async function emailedResetToken(origin: string): Promise<string> {
  const jar: CookieJar = new Map();
  keepCookies(jar, await get(`${origin}/forgot-password`));
  const asked = await postForm(`${origin}/forgot-password?_action=auth.requestPasswordReset`, jar, {
    email: resetAccount,
  });
  if (asked.status >= 400) throw new Error(`Asking for a reset link failed (${asked.status})`);
  const outbox = await get(`${origin}/dev/outbox`);
  if (outbox.status !== 200) {
    throw new Error(
      `No outbox viewer at ${origin}/dev/outbox (${outbox.status}): set OUTBOX_VIEWER`,
    );
  }
  const email = outbox.body
    .split('<article')
    .find((article) => article.includes(resetAccount) && article.includes('/reset-password/'));
  const token = email && /\/reset-password\/([\w-]+)/.exec(email)?.[1];
  if (!token) throw new Error(`The outbox holds no reset link for ${resetAccount}`);
  return token;
}
