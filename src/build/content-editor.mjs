/**
 * The content editors' editor, Keystatic, at /keystatic, in the builds that may serve it and no
 * other. `@keystatic/astro` adds its two routes (the editor's page and its API) and its
 * configuration (`keystatic.config.ts`) to any build it is part of; this integration lets it take
 * part only
 *
 * - under `astro dev` (`npm run dev`), where it saves to `src/content/` on this machine, or
 * - when `PUBLIC_KEYSTATIC_GITHUB_REPO` names a repository, where it commits to that repository
 *   through GitHub's sign-in, and the usual build deploys the commit.
 *
 * Any other build has neither its routes nor its code. The decision is also given to the code as
 * `import.meta.env.CONTENT_EDITOR` (`local`, `github` or empty), which the route table's guard
 * reads, and the repository as `import.meta.env.PUBLIC_KEYSTATIC_GITHUB_REPO`, which
 * `keystatic.config.ts` reads: the page, the guard and the editor's storage cannot disagree. A
 * build writes it beside itself too, with the editor's own address in GitHub mode, for the
 * server's start-up checks.
 */
import { writeFile } from 'node:fs/promises';
import keystatic from '@keystatic/astro';
import { builtContentEditorFile } from '../server/content-editor-settings.ts';

/**
 * Where the editor saves in a build made by `command` with `env`, or `undefined` for a build
 * without the editor.
 *
 * @param {string} command Astro's: `dev`, `build`, `preview` or `sync`.
 * @param {Readonly<Record<string, string | undefined>>} env
 * @returns {'local' | 'github' | undefined}
 */
export function contentEditorStorage(command, env) {
  if (env['PUBLIC_KEYSTATIC_GITHUB_REPO'] && command !== 'sync') return 'github';
  return command === 'dev' ? 'local' : undefined;
}

/**
 * The GitHub repository the editor commits to, `owner/name`, checked as the build starts: a
 * mistyped one would build an editor that cannot sign anyone in.
 *
 * @param {string | undefined} repository
 */
export function checkedRepository(repository) {
  if (repository && !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new Error(
      `PUBLIC_KEYSTATIC_GITHUB_REPO must name a GitHub repository as owner/name, not "${repository}"`,
    );
  }
  return repository ?? '';
}

/**
 * The address the editor of a GitHub-mode build is served at, on a host of its own
 * (src/server/content-editor-host.ts), checked as the build starts: Astro believes a request's
 * host only when the build names it, and Keystatic gives GitHub its callback on that host.
 * `astro dev` may go without it, and then serves the editor on its own address.
 *
 * @param {string} command
 * @param {string | undefined} editorOrigin
 */
export function checkedEditorOrigin(command, editorOrigin) {
  if (!editorOrigin) {
    if (command === 'dev') return undefined;
    throw new Error(
      'A build for GitHub mode (PUBLIC_KEYSTATIC_GITHUB_REPO) serves the content editor on a host ' +
        'of its own: set CONTENT_EDITOR_ORIGIN to its address, e.g. https://editor.portal.example.com',
    );
  }
  const origin = URL.canParse(editorOrigin) ? new URL(editorOrigin) : undefined;
  if (!origin || !/^https?:$/.test(origin.protocol) || origin.href !== `${origin.origin}/`) {
    throw new Error(
      `CONTENT_EDITOR_ORIGIN must be an http or https origin such as https://editor.portal.example.com, not "${editorOrigin}"`,
    );
  }
  return origin.origin;
}

/**
 * @param {{ env?: Readonly<Record<string, string | undefined>> }} [options]
 * @returns {import('astro').AstroIntegration}
 */
export function contentEditor({ env = process.env } = {}) {
  const editor = keystatic();
  /** @type {'local' | 'github' | undefined} */
  let storage;
  /** @type {URL | undefined} */
  let root;
  /** @type {string | undefined} */
  let editorOrigin;
  return {
    name: 'content-editor',
    hooks: {
      'astro:config:setup': (options) => {
        storage = contentEditorStorage(options.command, env);
        root = options.config.root;
        const repository =
          storage === 'github' ? checkedRepository(env['PUBLIC_KEYSTATIC_GITHUB_REPO']) : '';
        editorOrigin =
          storage === 'github'
            ? checkedEditorOrigin(options.command, env['CONTENT_EDITOR_ORIGIN'])
            : undefined;
        options.updateConfig({
          vite: {
            define: {
              'import.meta.env.CONTENT_EDITOR': JSON.stringify(storage ?? ''),
              'import.meta.env.PUBLIC_KEYSTATIC_GITHUB_REPO': JSON.stringify(repository),
            },
          },
        });
        if (storage === undefined) return;
        const setup = editor.hooks['astro:config:setup'];
        if (!setup) throw new Error('content-editor: @keystatic/astro has no config:setup hook');
        return setup(options);
      },
      // Beside the build, for the server to check its settings against as it starts
      // (src/server/content-editor-settings.ts).
      'astro:build:done': async () => {
        if (root === undefined) throw new Error('content-editor: no project root');
        await writeFile(
          new URL(builtContentEditorFile, root),
          `${JSON.stringify({ storage: storage ?? null, editorOrigin: editorOrigin ?? null })}\n`,
        );
      },
    },
  };
}
