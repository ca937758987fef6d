import { describe, expect, it } from 'vitest';
import { namedAfterPackage } from './sbom-component.mjs';

describe('namedAfterPackage', () => {
  it("names the SBOM's top-level component after package.json, not the folder it was built in", () => {
    const fromNpm = {
      specVersion: '1.5',
      metadata: {
        timestamp: '2026-11-25T15:25:51.194Z',
        component: {
          'bom-ref': 'member-portal@0.1.0',
          type: 'library',
          name: 'wt-small',
          version: '0.0.0',
          purl: 'pkg:npm/member-portal@0.1.0',
        },
      },
      components: [{ name: 'astro' }],
    };

    expect(namedAfterPackage(fromNpm, { name: 'member-portal', version: '0.1.0' })).toEqual({
      ...fromNpm,
      metadata: {
        ...fromNpm.metadata,
        component: { ...fromNpm.metadata.component, name: 'member-portal', version: '0.1.0' },
      },
    });
  });

  it('leaves an SBOM without a top-level component as it is', () => {
    const bare = { specVersion: '1.5', metadata: {} };

    expect(namedAfterPackage(bare, { name: 'member-portal', version: '0.1.0' })).toBe(bare);
  });
});
