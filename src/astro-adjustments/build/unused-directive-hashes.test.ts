import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withoutUnusedDirectiveHashes } from './unused-directive-hashes.mjs';

const digestOf = (script: string) =>
  `sha256-${createHash('sha256').update(script).digest('base64')}`;
const directives: [string, string][] = [
  ['load', '(()=>{self.Astro.load=1})();'],
  ['paint', '(()=>{self.Astro.paint=1})();'],
];
const island = 'sha256-island=';

/** The parts of Astro's serialized manifest this rewrites, as the build writes them. */
const manifest = (hashes: string[]) =>
  `const manifest = deserializeManifest({"csp":{"algorithm":"SHA-256","scriptHashes":${JSON.stringify(hashes)},` +
  `"scriptDirective":{"resources":[],"hashes":${JSON.stringify(hashes)},"strictDynamic":false},"styleHashes":["sha256-style="]},` +
  `"clientDirectives":${JSON.stringify(directives)},"renderers":[]});`;

describe('withoutUnusedDirectiveHashes', () => {
  const all = [island, ...directives.map(([, script]) => digestOf(script))];

  it('drops the digests of the directives named unused, from both lists, and keeps the others', () => {
    const rewritten = withoutUnusedDirectiveHashes(manifest(all), ['load']);
    expect(rewritten).toBe(manifest([island, digestOf(directives[1]?.[1] ?? '')]));
  });

  it('says a module without a manifest is none of its business', () => {
    expect(withoutUnusedDirectiveHashes('export const answer = 42;', ['load'])).toBeUndefined();
  });

  it('stops the build when the manifest is not shaped as expected or lacks a directive', () => {
    expect(() => withoutUnusedDirectiveHashes(manifest(all), ['idle'])).toThrow(
      /no client directive "idle"/,
    );
    const withoutDirective = manifest(all).replace(/"scriptDirective":\{[^}]*\},/, '');
    expect(() => withoutUnusedDirectiveHashes(withoutDirective, ['load'])).toThrow(
      /expected one scriptDirective/,
    );
  });
});

describe('the pages', () => {
  it('hydrate islands by the product’s own directives only, whose scripts the policy allows', () => {
    const source = fileURLToPath(new URL('../../', import.meta.url));
    const files = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.astro') || file.endsWith('.mdx'),
    );
    const offending = files.filter((file) =>
      /client:(load|idle|visible|media|only)\b/.test(readFileSync(join(source, file), 'utf8')),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });
});
