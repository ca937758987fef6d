import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A pattern in .gitignore meant for a folder of the running product (the embedded database under
 * `data/`) once also matched a folder of pages, so a clean clone built without that route. The
 * folders that hold what the product is built and tested from must have nothing git ignores.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const sourceFolders = [
  'src',
  'api',
  'platform',
  'contract',
  'eslint',
  'tests',
  'scripts',
  'bench',
  'public',
  'docs',
];

describe('.gitignore', () => {
  it('ignores no file in the folders the product is built and tested from', () => {
    const ignored = execFileSync(
      'git',
      ['ls-files', '--others', '--ignored', '--exclude-standard', '--', ...sourceFolders],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\n')
      .filter(
        (path) => path !== '' && !path.includes('/node_modules/') && !path.includes('/.astro/'),
      );
    expect(ignored).toEqual([]);
  });
});
