import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The adjustments in this folder are written against one release of each of these packages
 * (docs/ARCHITECTURE.md, "Where the project adjusts Astro"): an upgrade is a commit of its own that
 * names the new versions there and runs the whole suite.
 */
const astroPackages = ['astro', '@astrojs/react', '@astrojs/node'] as const;

const readJson = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

const manifest = readJson('package.json') as { dependencies: Record<string, string> };
const lockfile = readJson('package-lock.json') as {
  packages: Record<string, { version?: string }>;
};
const architecture = readFileSync(new URL('../../docs/ARCHITECTURE.md', import.meta.url), 'utf8');

describe('the Astro packages', () => {
  it.each(astroPackages)('%s is pinned to one exact version, the one installed', (name) => {
    const wanted = manifest.dependencies[name];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lockfile.packages[`node_modules/${name}`]?.version).toBe(wanted);
  });

  it('are the versions the table of adjustments says it was written against', () => {
    const section = architecture.split('## Where the project adjusts Astro\n\n')[1] ?? '';
    const firstParagraph = (section.split('\n\n')[0] ?? '').replaceAll('\n', ' ');
    for (const name of astroPackages) {
      const named = name === 'astro' ? 'Astro' : `\`${name}\``;
      expect(firstParagraph).toContain(`${named} ${manifest.dependencies[name] ?? ''}`);
    }
  });
});
