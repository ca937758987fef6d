import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  checkedEditorOrigin,
  checkedRepository,
  contentEditor,
  contentEditorStorage,
} from './content-editor.mjs';

type Setup = NonNullable<AstroIntegration['hooks']['astro:config:setup']>;

const root = mkdtempSync(path.join(tmpdir(), 'content-editor-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Runs the integration's setup as Astro would for `command`, and says what it added. */
async function setUp(command: 'dev' | 'build' | 'preview' | 'sync', env: Record<string, string>) {
  const injectRoute = vi.fn<(route: { pattern: string }) => void>();
  const updateConfig = vi.fn<(update: { vite?: { define?: Record<string, string> } }) => void>();
  const setup = contentEditor({ env }).hooks['astro:config:setup'] as Setup;
  await setup({
    command,
    injectRoute,
    updateConfig,
    config: { root: pathToFileURL(`${root}/`), server: { host: '127.0.0.1' } },
  } as unknown as Parameters<Setup>[0]);
  const defines = Object.assign(
    {},
    ...updateConfig.mock.calls.map(([update]) => update.vite?.define ?? {}),
  ) as Record<string, string>;
  return {
    routes: injectRoute.mock.calls.map(([route]) => route.pattern),
    editor: defines['import.meta.env.CONTENT_EDITOR'],
    repository: defines['import.meta.env.PUBLIC_KEYSTATIC_GITHUB_REPO'],
  };
}

describe('the content editor in a build', () => {
  const gitHub = {
    PUBLIC_KEYSTATIC_GITHUB_REPO: 'acme/member-portal',
    CONTENT_EDITOR_ORIGIN: 'https://editor.portal.example.com',
  };

  it('is in the development server, saving to this machine', async () => {
    expect(contentEditorStorage('dev', {})).toBe('local');
    expect(await setUp('dev', {})).toEqual({
      routes: ['/keystatic/[...params]', '/api/keystatic/[...params]'],
      editor: '"local"',
      repository: '""',
    });
  });

  it('is in no production build unless it is made for GitHub mode: no route, no code', async () => {
    expect(contentEditorStorage('build', {})).toBeUndefined();
    expect(await setUp('build', {})).toEqual({ routes: [], editor: '""', repository: '""' });
  });

  it('is in a production build made for a GitHub repository, committing there', async () => {
    expect(contentEditorStorage('build', gitHub)).toBe('github');
    expect(await setUp('build', gitHub)).toEqual({
      routes: ['/keystatic/[...params]', '/api/keystatic/[...params]'],
      editor: '"github"',
      repository: '"acme/member-portal"',
    });
  });

  it('is not in the types `astro sync` makes for the checks', async () => {
    expect((await setUp('sync', gitHub)).routes).toEqual([]);
  });

  it('is built for GitHub mode only with the address of its own host', async () => {
    await expect(
      setUp('build', { PUBLIC_KEYSTATIC_GITHUB_REPO: 'acme/member-portal' }),
    ).rejects.toThrow('set CONTENT_EDITOR_ORIGIN to its address');
    expect(checkedEditorOrigin('build', 'https://editor.portal.example.com')).toBe(
      'https://editor.portal.example.com',
    );
    expect(() =>
      checkedEditorOrigin('build', 'https://editor.portal.example.com/keystatic'),
    ).toThrow('CONTENT_EDITOR_ORIGIN must be an http or https origin');
    expect(checkedEditorOrigin('dev', undefined)).toBeUndefined();
  });

  it('refuses to build for a repository not named as owner/name', () => {
    expect(checkedRepository('acme/member-portal')).toBe('acme/member-portal');
    expect(() => checkedRepository('https://github.com/acme/member-portal')).toThrow(
      'PUBLIC_KEYSTATIC_GITHUB_REPO must name a GitHub repository as owner/name',
    );
  });
});
