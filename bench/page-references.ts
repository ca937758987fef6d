/**
 * What a page's HTML, scripts and stylesheets refer to, read as a browser would find it, for
 * bench/page-weight.ts: the scripts and modules to fetch, the stylesheets and what they load, and
 * the modules found late (asked for only after the modules that import them arrived).
 */
/** What a page's styles cost its first paint, and what they use without defining. */
export interface StylesheetFindings {
  /** Stylesheets the browser must fetch before it paints anything. */
  readonly renderBlocking: readonly string[];
  /** Stylesheets the page has the browser fetch ahead, for a page it may go to next. */
  readonly prefetched: readonly string[];
  /**
   * Custom properties the page's styles (inline, and in the stylesheets it links) use, without a
   * fallback, and define nowhere.
   */
  readonly undefinedCustomProperties: readonly string[];
}

/**
 * Which stylesheets a page waits for (only a signed-in page, for the one stylesheet the pages
 * before sign-in fetch ahead) and which it fetches ahead, and whether the tokens the build leaves
 * out of its styles (src/styles/prune-unused-tokens.mjs) are ones no style uses. `linkedCss` is the
 * text of the stylesheets it links.
 */
export function stylesheetFindings(
  html: string,
  linkedCss: readonly string[] = [],
): StylesheetFindings {
  const styles = [
    ...[...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? ''),
    ...linkedCss,
  ].join('\n');
  const defined = new Set([...styles.matchAll(/(--[\w-]+)\s*:/g)].map((match) => match[1]));
  const undefinedCustomProperties = new Set<string>();
  for (const [, name = '', fallback] of styles.matchAll(/var\(\s*(--[\w-]+)\s*(,)?/g)) {
    if (!fallback && !defined.has(name)) undefinedCustomProperties.add(name);
  }
  return {
    renderBlocking: stylesheetReferencesOf(html),
    prefetched: prefetchedStylesheetsOf(html),
    undefinedCustomProperties: [...undefinedCustomProperties].sort(),
  };
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
/** Icons, images and preloaded files a document links. */
export const otherReferences =
  /<link\b(?=[^>]*\brel="(?:icon|apple-touch-icon|preload)")[^>]*\bhref="([^"]+)"|<img\b[^>]*\bsrc="([^"]+)"/g;

const stylesheetReferences = /<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"/g;

/** The stylesheets a document links, as written. */
export function stylesheetReferencesOf(html: string): string[] {
  return [...html.matchAll(stylesheetReferences)].map((match) => match[1] ?? '');
}

const prefetchedStylesheets =
  /<link\b(?=[^>]*\brel="prefetch")(?=[^>]*\bas="style")[^>]*\bhref="([^"]+)"/g;

/** The stylesheets a document has the browser fetch ahead, as written. */
export function prefetchedStylesheetsOf(html: string): string[] {
  return [...html.matchAll(prefetchedStylesheets)].map((match) => match[1] ?? '');
}
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
 * Every module an island needs is asked for at once when it starts to
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
