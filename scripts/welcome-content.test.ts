import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
let copy: string;

/** `astro sync` (what `npm run dev` and `npm run build` check content with) in the copy. */
function syncContent(): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'sync'],
    {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function editWelcomePage(page: string, edit: (text: string) => string): void {
  const file = path.join(copy, 'src/content/welcome', `${page}.md`);
  writeFileSync(
    file,
    edit(readFileSync(path.join(root, 'src/content/welcome', `${page}.md`), 'utf8')),
  );
}

describe('the welcome pages as content editors change them', () => {
  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'welcome-content-'));
    for (const entry of ['src', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
      cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('accepts the files as they are', () => {
    expect(syncContent().status).toBe(0);
  }, 60_000);

  it('refuses a page without a title, naming the file and the field', () => {
    editWelcomePage('about-us', (text) => text.replace(/^title: .*\n/m, ''));
    const { status, output } = syncContent();
    expect(status).not.toBe(0);
    expect(output).toMatch(/about-us/);
    expect(output).toMatch(/title/);
  }, 60_000);

  it('refuses a step that is not 1, 2 or 3, naming the file and the field', () => {
    editWelcomePage('about-us', (text) => text);
    editWelcomePage('contact-info', (text) => text.replace(/^step: 3$/m, 'step: third'));
    const { status, output } = syncContent();
    expect(status).not.toBe(0);
    expect(output).toMatch(/contact-info/);
    expect(output).toMatch(/step/);
  }, 60_000);
});
