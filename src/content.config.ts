import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { partnerSlugs } from './routes';

/**
 * Editor-owned content. A bad edit fails `astro build` with the file, the
 * entry and the field named, instead of breaking a page at run time.
 */
const offers = defineCollection({
  loader: file('src/content/offers.yaml'),
  schema: z.object({
    id: z.enum(partnerSlugs),
    title: z.string().min(1),
    description: z.string().min(1),
    url: z.url({ protocol: /^https$/, error: 'must be an https:// address' }),
  }),
});

/**
 * The words of the three welcome pages, one Markdown file each (`src/content/welcome/`): a title,
 * its step in the sequence, a lead sentence, and the body. See the README's section for editors.
 */
const welcome = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/welcome' }),
  schema: z.object({
    title: z.string().min(1, 'must not be empty').max(80, 'must be 80 characters or fewer'),
    step: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      error: 'must be 1, 2 or 3 (the page’s place in the sequence)',
    }),
    lead: z.string().min(1, 'must not be empty').max(200, 'must be 200 characters or fewer'),
  }),
});

export const collections = { offers, welcome };
