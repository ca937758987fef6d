import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

/** `astro sync` (what `npm run dev` and `npm run build` check content with) in a project copy. */
export function syncContent(copy: string): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'sync'],
    {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
