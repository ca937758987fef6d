import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'astro/zod';
import { collections } from '../content.config';
import { PARTNER_OFFER_IDS } from '../../contract/partner-offers.ts';

// Outside Astro, a collection is what its definition says: its loader and its schema.
vi.mock('astro:content', () => ({ defineCollection: <T>(definition: T): T => definition }));

describe('the offers file', () => {
  const offers = load(
    readFileSync(path.resolve(import.meta.dirname, 'offers.yaml'), 'utf8'),
  ) as Record<string, { url: string }>;

  it('has one entry for every partner slug, and no other', () => {
    expect(Object.keys(offers).sort()).toEqual([...PARTNER_OFFER_IDS].sort());
  });

  it('sends every offer to an https address', () => {
    for (const offer of Object.values(offers)) expect(new URL(offer.url).protocol).toBe('https:');
  });
});

/**
 * What an editor reads for `offer` changed by `change`, one line a field, as Astro prints it
 * (`field: sentence`). A field `change` sets to `undefined` is left out, as a line deleted.
 */
function problemsWith(offer: object, change: object): string[] {
  const { schema } = collections.offers;
  if (!(schema instanceof z.ZodType)) throw new Error('The offers schema is not a zod schema');
  const edited = Object.fromEntries(
    Object.entries({ ...offer, ...change }).filter(([, value]) => value !== undefined),
  );
  const result = schema.safeParse(edited);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('an offer an editor gets wrong', () => {
  const offer = {
    id: 'auto-insurance',
    title: 'Auto insurance',
    description: 'Compare cover for your car from trusted insurers.',
    url: 'https://partners.example.com/auto-insurance',
  };
  const id = `id: every offer needs the id of a partner, one of ${PARTNER_OFFER_IDS.join(', ')}`;
  const title = 'title: every offer needs a title, the name of the offer';
  const description = 'description: every offer needs a description, a sentence about the offer';
  const url = 'url: every offer needs the partner’s address, starting with https://';

  it('has no problem as it stands', () => {
    expect(problemsWith(offer, {})).toEqual([]);
  });

  it.each([
    ['no id', { id: undefined }, id],
    ['an id that is not a partner', { id: 'car-insurance' }, id],
    ['no title', { title: undefined }, title],
    ['an empty title', { title: '' }, title],
    ['a title that is a number', { title: 2026 }, title],
    ['no description', { description: undefined }, description],
    ['an empty description', { description: '' }, description],
    ['no url', { url: undefined }, url],
    ['a plain-HTTP url', { url: 'http://partners.example.com/auto-insurance' }, url],
    ['a url that is not an address', { url: 'partners.example.com/auto-insurance' }, url],
  ])('with %s is told which field, and its rule in a sentence', (_case, change, message) => {
    expect(problemsWith(offer, change)).toEqual([message]);
  });
});
