import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cachedDigests, withCachedCspDigests } from './cached-csp-digests.mjs';

const installedAstro = readFileSync(
  new URL('../../../node_modules/astro/dist/core/encryption.js', import.meta.url),
  'utf8',
);

/** A stand-in for Astro's module: the same function, which counts how often it really hashes. */
const standIn = `
export let hashed = 0;
async function generateCspDigest(data, algorithm) {
  hashed += 1;
  const buffer = await crypto.subtle.digest(algorithm, new TextEncoder().encode(data));
  return "sha256-" + Buffer.from(buffer).toString("base64");
}
export { generateCspDigest };
`;

interface StandIn {
  generateCspDigest: (data: string, algorithm: string) => Promise<string>;
  hashed: number;
}

async function patchedStandIn(): Promise<StandIn> {
  const source = withCachedCspDigests(standIn);
  const module: unknown = await import(
    `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`
  );
  return module as StandIn;
}

describe('withCachedCspDigests', () => {
  it('recognises the generateCspDigest of the installed Astro, and refuses a module without it', () => {
    expect(() => withCachedCspDigests(installedAstro)).not.toThrow();
    expect(() => withCachedCspDigests('export function somethingElse() {}')).toThrow(
      /no longer defines generateCspDigest/,
    );
  });

  it('hashes each content once and gives the digest Astro would', async () => {
    const module = await patchedStandIn();
    const first = await module.generateCspDigest('console.log(1)', 'SHA-256');
    expect(await module.generateCspDigest('console.log(1)', 'SHA-256')).toBe(first);
    expect(module.hashed).toBe(1);
    const expected = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode('console.log(1)')),
    ).toString('base64');
    expect(first).toBe(`sha256-${expected}`);
    expect(await module.generateCspDigest('console.log(2)', 'SHA-256')).not.toBe(first);
    expect(module.hashed).toBe(2);
  });

  it('forgets the oldest digest once it holds as many as it may', async () => {
    const module = await patchedStandIn();
    for (let index = 0; index <= cachedDigests; index += 1) {
      await module.generateCspDigest(`content ${index}`, 'SHA-256');
    }
    const before = module.hashed;
    await module.generateCspDigest(`content ${cachedDigests}`, 'SHA-256');
    expect(module.hashed).toBe(before);
    await module.generateCspDigest('content 0', 'SHA-256');
    expect(module.hashed).toBe(before + 1);
  });
});
