import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { partnerSlugs } from '../routes';

describe('the offers file', () => {
  const offers = load(readFileSync(path.resolve(import.meta.dirname, 'offers.yaml'), 'utf8')) as {
    id: string;
    url: string;
  }[];

  it('has one entry for every partner slug, and no other', () => {
    expect(offers.map((offer) => offer.id).sort()).toEqual([...partnerSlugs].sort());
  });

  it('sends every offer to an https address', () => {
    for (const offer of offers) expect(new URL(offer.url).protocol).toBe('https:');
  });
});
