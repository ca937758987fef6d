import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverFolder = dirname(fileURLToPath(import.meta.url));

/**
 * The folders of `src/server/` each folder may import besides itself (src/server/README.md,
 * "What may import what"); `''` is the files at the top.
 */
const mayImport: Record<string, readonly string[] | 'anything'> = {
  middleware: 'anything',
  'member-pages': ['http', 'session', 'api', ''],
  forms: ['http', 'session', ''],
  http: ['session', 'api', ''],
  monitoring: ['session', 'api', ''],
  session: ['api', ''],
  api: [''],
  'first-visit': ['http', ''],
  '': [''],
};

/** The code files of `src/server/`, tests left out, as paths relative to it. */
function codeFiles(folder = serverFolder): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return codeFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [relative(serverFolder, path)]
      : [];
  });
}

/** The folder of `src/server/` a path inside it belongs to (`''` for the files at the top). */
function folderOf(pathInServer: string): string {
  const parts = pathInServer.split(sep);
  return parts.length > 1 ? (parts[0] ?? '') : '';
}

/** Every import of `file` that lands inside `src/server/`, as paths relative to it, no extension. */
function importsInsideServer(file: string): string[] {
  const code = readFileSync(join(serverFolder, file), 'utf8');
  const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers
    .map((specifier) => relative(serverFolder, resolve(serverFolder, dirname(file), specifier)))
    .filter((target) => !target.startsWith('..'))
    .map((target) => target.replace(/\.tsx?$/, ''));
}

describe('the folders of src/server/', () => {
  it('are each named in the rules of what may import what', () => {
    const folders = readdirSync(serverFolder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(mayImport).filter(Boolean).sort());
  });

  it('import only the folders their rules allow', () => {
    const brokenRules = codeFiles().flatMap((file) => {
      const from = folderOf(file);
      const allowed = mayImport[from] ?? [];
      if (allowed === 'anything') return [];
      return importsInsideServer(file)
        .filter((target) => folderOf(target) !== from && !allowed.includes(folderOf(target)))
        .map((target) => `${file} imports ${target}`);
    });
    expect(brokenRules).toEqual([]);
  });

  it('are read import by import, up to the top and into another folder', () => {
    expect(importsInsideServer(join('session', 'xsrf.ts'))).toContain('secret');
    expect(importsInsideServer(join('middleware', 'xsrf.ts'))).toContain(join('session', 'xsrf'));
  });
});
