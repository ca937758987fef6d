import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
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

export const collections = { offers };
