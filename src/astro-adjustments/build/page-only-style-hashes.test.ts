import { describe, expect, it } from 'vitest';
import { withPageOnlyStyleHashes } from './page-only-style-hashes.mjs';

/** The part of Astro's serialized manifest this rewrites, as the build writes it. */
const manifest = (hashes: string[]) =>
  `const manifest = deserializeManifest({"csp":{"algorithm":"SHA-256","styleHashes":${JSON.stringify(hashes)},` +
  `"styleDirective":{"resources":["'self'"],"hashes":${JSON.stringify(hashes)}},"scriptHashes":["sha256-script="]}});`;

describe('withPageOnlyStyleHashes', () => {
  it('keeps only the named digests as the styles every page may carry', () => {
    const rewritten = withPageOnlyStyleHashes(
      manifest(['sha256-layers=', 'sha256-signIn=', 'sha256-dashboard=', 'sha256-island=']),
      ['sha256-layers=', 'sha256-island='],
    );
    expect(rewritten).toBe(manifest(['sha256-layers=', 'sha256-island=']));
  });

  it('leaves the scripts, the resources and the rest of the manifest as they were', () => {
    const rewritten = withPageOnlyStyleHashes(manifest(['sha256-a=']), []) ?? '';
    expect(rewritten).toContain(`"resources":["'self'"]`);
    expect(rewritten).toContain('"scriptHashes":["sha256-script="]');
    expect(rewritten).toContain('"algorithm":"SHA-256"');
  });

  it('says a module without a manifest is none of its business', () => {
    expect(withPageOnlyStyleHashes('export const answer = 42;', [])).toBeUndefined();
  });

  it('stops the build when the manifest is not shaped as expected', () => {
    const twice = manifest(['sha256-a=']) + manifest(['sha256-b=']);
    expect(() => withPageOnlyStyleHashes(twice, [])).toThrow(/expected one styleDirective/);
    expect(() => withPageOnlyStyleHashes('{"styleHashes":[]}', [])).toThrow(/found 0 and 1/);
  });
});
