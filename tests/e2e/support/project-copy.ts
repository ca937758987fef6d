import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** What the copy leaves out: what the tools make, and `node_modules`, which it links to. */
const notCopied = new Set([
  '.git',
  '.astro',
  'node_modules',
  'dist',
  'data',
  'reports',
  'test-results',
  'playwright-report',
]);

/**
 * A copy of the project in a new temporary folder (`folder`, with the copy at `root`), for a test
 * that changes its files as an editor would, or builds it with settings of its own, without
 * touching the working tree. Remove `folder` when done.
 */
export function copyOfProject(prefix: string): { folder: string; root: string } {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  const root = path.join(folder, 'project');
  cpSync(projectRoot, root, {
    recursive: true,
    filter: (source) => !notCopied.has(path.relative(projectRoot, source).split(path.sep)[0] ?? ''),
  });
  // The packages are the project's, each linked, but not the caches the tools keep beside them
  // (`.vite`: Vite's dependencies; `.astro`: Astro's content store): the copy's are its own, and a
  // developer's `npm run dev` does not find them made again for a folder that is gone.
  const modules = path.join(projectRoot, 'node_modules');
  mkdirSync(path.join(root, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (entry === '.bin' || !entry.startsWith('.')) {
      symlinkSync(path.join(modules, entry), path.join(root, 'node_modules', entry));
    }
  }
  return { folder, root };
}
