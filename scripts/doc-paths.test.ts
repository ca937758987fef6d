import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A path named in the docs or in a comment is a promise that the file is there: two such names
 * outlived their files and sent readers looking for code that had moved. Every Markdown file and
 * every comment of the source folders is read, and each repository path they name, backticked or
 * bare, must exist. Paths are from the repository's root.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** Folders never read: installed packages, builds, reports and the running product's data. */
const skippedFolders = new Set([
  'node_modules',
  '.git',
  '.astro',
  'dist',
  'data',
  'reports',
  'test-results',
  'playwright-report',
]);

/** The top-level folders a repository path starts with. */
const topFolders = [
  'src',
  'api',
  'platform',
  'contract',
  'eslint',
  'scripts',
  'tests',
  'bench',
  'docs',
  'public',
  '.ci',
];

/** Folders whose source files' comments are read (and the source files at the top). */
const sourceFolders = ['src', 'api', 'platform', 'contract', 'eslint', 'scripts', 'tests', 'bench'];
const sourceFile = /\.(?:ts|tsx|mts|js|mjs|cjs|astro|css)$/;

/** A file at the top named without a folder: a tool's configuration, the package files. */
const topFileName =
  /^(?:[\w-]+\.config\.[mc]?[jt]s|package(?:-lock)?\.json|tsconfig[\w.-]*\.json)$/;

/** A path written without backticks: a top-level folder, then a name with an extension. */
const barePath = new RegExp(
  `(?<![\\w./@\`-])(?:${topFolders.map((folder) => folder.replace('.', '\\.')).join('|')})/[\\w./[\\]-]*\\.(?:md|ts|tsx|mjs|js|astro|css|json|sql|ya?ml|txt)(?![\\w/-])`,
  'g',
);

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

interface Text {
  line: number;
  text: string;
}

/** The lines of a Markdown file outside fenced code blocks. */
function markdownLines(content: string): Text[] {
  let fenced = false;
  return content.split('\n').flatMap((text, index) => {
    if (/^\s*(?:```|~~~)/.test(text)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text }];
  });
}

/**
 * The comment text of a source file, line by line: `//` comments (alone on their line, or after
 * code and a space), block and JSDoc comments (a line that opens one, its lines until it closes)
 * and HTML comments. Read by lines rather than parsed, so a string that happens to look like a
 * comment is read as one; a false alarm names its line.
 */
function commentLines(content: string): Text[] {
  let inBlock = false;
  const lines: Text[] = [];
  content.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (inBlock) {
      lines.push({ line, text });
      if (/\*\/|-->/.test(text)) inBlock = false;
      return;
    }
    const opening = /^\s*(?:\{?\/\*|<!--)/.exec(text);
    if (opening) {
      lines.push({ line, text });
      const rest = text.slice(opening[0].length);
      if (!/\*\/|-->/.test(rest)) inBlock = true;
      return;
    }
    const trailing = /(?:^|\s)\/\/\s(.*)$/.exec(text);
    if (trailing) lines.push({ line, text: trailing[1] ?? '' });
  });
  return lines;
}

/**
 * The repository path a backticked string names, as it would be found on disk, or `undefined`
 * when it names none (a command, a value, an address) or has a placeholder in it. A trailing
 * `:line`, `#anchor` or glob is cut off (the folder before a glob must exist).
 */
function pathIn(code: string): string | undefined {
  if (/\s/.test(code)) return undefined;
  const path = code.replace(/#.*$/, '').replace(/:(?:L?\d+(?:-L?\d+)?)$/, '');
  const startsInTopFolder = topFolders.some((folder) => path.startsWith(`${folder}/`));
  if (!startsInTopFolder) return topFileName.test(path) ? path : undefined;
  if (/[<>{}$…]|\.\.\.|NNN/.test(path)) return undefined;
  const globAt = path.search(/[^/]*\*/);
  return globAt === -1 ? path : path.slice(0, globAt);
}

/** Each repository path a line names: backticked strings, and bare paths with an extension. */
function pathsOn(text: string): string[] {
  const backticked = Array.from(text.matchAll(/`([^`\n]+)`/g), (match) => match[1] ?? '');
  const outsideBackticks = text.replace(/`[^`\n]*`/g, ' ');
  const bare = Array.from(outsideBackticks.matchAll(barePath), (match) => match[0]);
  return [...backticked, ...bare].flatMap((code) => {
    const path = pathIn(code);
    return path === undefined ? [] : [path];
  });
}

function missingPaths(file: string, lines: Text[]): string[] {
  return lines.flatMap(({ line, text }) =>
    pathsOn(text)
      .filter((path) => !existsSync(join(root, path)))
      .map((path) => `${relative(root, file)}:${line}: ${path}`),
  );
}

describe('repository paths named in docs and comments', () => {
  it('exist, in every Markdown file', () => {
    const markdown = filesUnder(root, (name) => name.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(10);
    const missing = markdown.flatMap((file) =>
      missingPaths(file, markdownLines(readFileSync(file, 'utf8'))),
    );
    expect(missing).toEqual([]);
  });

  it('exist, in every comment of the source files', () => {
    const topFiles = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isFile() && sourceFile.test(entry.name))
      .map((entry) => join(root, entry.name));
    const sources = [
      ...topFiles,
      ...sourceFolders.flatMap((folder) =>
        filesUnder(join(root, folder), (name) => sourceFile.test(name)),
      ),
    ];
    expect(sources.length).toBeGreaterThan(100);
    const missing = sources.flatMap((file) =>
      missingPaths(file, commentLines(readFileSync(file, 'utf8'))),
    );
    expect(missing).toEqual([]);
  });

  it('are recognised with a line, an anchor or a glob, and not with a placeholder', () => {
    expect(pathsOn('see `src/routes.ts:12` and `docs/PRODUCT.md#7-api`')).toEqual([
      'src/routes.ts',
      'docs/PRODUCT.md',
    ]);
    expect(pathsOn('`src/content/welcome/*.md`, `src/islands/<Name>/<Name>.tsx`')).toEqual([
      'src/content/welcome/',
    ]);
    expect(pathsOn('`docs/decisions/NNN-title.md`, `npm run dev`, `astro.config.mjs`')).toEqual([
      'astro.config.mjs',
    ]);
    expect(pathsOn('bare docs/ARCHITECTURE.md. Not node_modules/astro/src/x.ts')).toEqual([
      'docs/ARCHITECTURE.md',
    ]);
  });
});
