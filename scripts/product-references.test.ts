import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the repository's references to its product document true: every `§n` or `§n.m` names a
 * section of docs/PRODUCT.md, and no file points at a product document outside the repository.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const productPath = 'docs/PRODUCT.md';
const thisFile = 'scripts/product-references.test.ts';

/** Names of documents that live outside the repository, which a clone cannot follow. */
// Spelled out of parts, so that this file does not itself cite what it forbids.
const outsideDocuments = [
  ...['SPEC', 'DESIGN', 'PITFALLS'].map((name) => `${name}.md`),
  ['..', 'shared', ''].join('/'),
];

/** Every section a line cites, in order: `§7`, `§7.2`, and each of `§4, §5 and §9`. */
function sectionReferences(line: string): string[] {
  return Array.from(line.matchAll(/§\s?(\d+(?:\.\d+)*)/g), (match) => match[1] ?? '');
}

/**
 * The sections docs/PRODUCT.md defines: `## n. Title` gives `n`, `### n.m Title` gives `n.m`, and
 * `### n.m.k Title` gives `n.m.k`.
 */
function productSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^## (\d+)\. \S|^### (\d+\.\d+(?:\.\d+)?)\.? \S/.exec(line);
    const number = heading?.[1] ?? heading?.[2];
    if (number !== undefined) sections.add(number);
  }
  return sections;
}

interface Finding {
  readonly line: number;
  readonly reference: string;
}

/** The references of `text` that name no section in `sections` (headings skipped if asked). */
function unresolvedReferences(
  text: string,
  sections: ReadonlySet<string>,
  { skipHeadings = false } = {},
): Finding[] {
  return text.split('\n').flatMap((line, index) =>
    skipHeadings && line.startsWith('#')
      ? []
      : sectionReferences(line)
          .filter((reference) => !sections.has(reference))
          .map((reference) => ({ line: index + 1, reference })),
  );
}

interface RepositoryFile {
  readonly path: string;
  readonly text: string;
}

/** The repository's text files, tracked or not (ignored ones left out), as git lists them. */
function repositoryTextFiles(): RepositoryFile[] {
  const listing = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return [...new Set(listing.split('\0'))]
    .filter((path) => path !== '')
    .flatMap((path) => {
      const absolute = join(root, path);
      // Listed but gone from the working tree (deleted, not yet committed), or not a plain file.
      if (statSync(absolute, { throwIfNoEntry: false })?.isFile() !== true) return [];
      const bytes = readFileSync(absolute);
      if (bytes.includes(0)) return []; // binary
      return [{ path, text: bytes.toString('utf8') }];
    });
}

describe('section references (pure parts)', () => {
  it('reads a single section, a subsection and every member of a list', () => {
    expect(sectionReferences('the calls (docs/PRODUCT.md §7)')).toEqual(['7']);
    expect(sectionReferences('see §7.2.')).toEqual(['7.2']);
    expect(sectionReferences('The shared components of §4, §5 and §9.')).toEqual(['4', '5', '9']);
    expect(sectionReferences('no section here, 25 MB')).toEqual([]);
  });

  it('finds the sections of numbered headings only', () => {
    const markdown =
      '# Title\n## 2. Two\n### 2.1 Part\n### 2.1.1 Detail\n## Three\nText ## 4. not a heading';
    expect([...productSections(markdown)]).toEqual(['2', '2.1', '2.1.1']);
  });

  it('names the line and the reference of a section that does not exist', () => {
    // Built from parts, so that this file itself cites no missing section.
    const missing = ['§', '12.9'].join('');
    const text = `fine: §2.1\nbroken: ${missing} and §2`;
    expect(unresolvedReferences(text, new Set(['2', '2.1']))).toEqual([
      { line: 2, reference: '12.9' },
    ]);
  });
});

describe('the repository and docs/PRODUCT.md', () => {
  const files = repositoryTextFiles();

  it('resolves every § reference in the repository to a section of docs/PRODUCT.md', () => {
    const product = files.find((file) => file.path === productPath);
    expect(product, `${productPath} must exist`).toBeDefined();
    const sections = productSections(product?.text ?? '');

    const problems = files.flatMap((file) =>
      unresolvedReferences(file.text, sections, { skipHeadings: file.path === productPath }).map(
        ({ line, reference }) =>
          `${file.path}:${line}: §${reference} is not a section of ${productPath}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it('refers to no product document outside the repository', () => {
    const problems = files
      .filter((file) => file.path !== thisFile)
      .flatMap((file) =>
        file.text
          .split('\n')
          .flatMap((text, index) =>
            outsideDocuments
              .filter((name) => text.includes(name))
              .map((name) => `${file.path}:${index + 1}: mentions ${name}; cite ${productPath}`),
          ),
      );
    expect(problems).toEqual([]);
  });
});
