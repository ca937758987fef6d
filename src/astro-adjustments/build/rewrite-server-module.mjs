/**
 * Integrations that finish what the server build left open once the whole build is done (the
 * client is built after the server) rewrite one module of it through this: the build stops
 * unless exactly one module is rewritten, so a change in Astro's output cannot pass unnoticed.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Rewrites the one module of the server build in `serverDir` that carries `marker` and that
 * `rewrite` changes (it answers `undefined` for a module that is none of its business).
 *
 * @param {{
 *   serverDir: string | undefined,
 *   marker: string,
 *   rewrite: (code: string) => string | undefined,
 *   integration: string,
 * }} options
 */
export async function rewriteServerModule({ serverDir, marker, rewrite, integration }) {
  if (serverDir === undefined) throw new Error(`${integration}: no server folder`);
  let rewritten = 0;
  for (const entry of await readdir(serverDir, { recursive: true })) {
    if (!entry.endsWith('.mjs')) continue;
    const file = join(serverDir, entry);
    const code = await readFile(file, 'utf8');
    if (!code.includes(marker)) continue;
    const updated = rewrite(code);
    if (updated === undefined) continue;
    await writeFile(file, updated);
    rewritten += 1;
  }
  if (rewritten !== 1) {
    throw new Error(`${integration}: rewrote ${rewritten} modules in ${serverDir}, expected 1`);
  }
}

/**
 * An integration that, once the whole build is done, rewrites the one server module carrying
 * `marker` with `rewrite` (see {@link rewriteServerModule}).
 *
 * @param {{ name: string, marker: string, rewrite: (code: string) => string | undefined }} options
 * @returns {import('astro').AstroIntegration}
 */
export function serverModuleRewriting({ name, marker, rewrite }) {
  /** @type {string | undefined} */
  let serverDir;
  return {
    name,
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async () => {
        await rewriteServerModule({ serverDir, marker, rewrite, integration: name });
      },
    },
  };
}
