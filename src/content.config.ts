import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { partnerSlugs } from './routes';

/**
 * Text an editor must write, refused with `sentence` however it is wrong (missing, not text,
 * empty, too long): Astro prints the field's name before the sentence, and a sentence that states
 * the rule serves every case, where zod's own words ("Required", "Too big: expected string to have
 * <=80 characters") are for programmers.
 */
function editorText(sentence: string, maxLength?: number) {
  const text = z.string({ error: sentence }).min(1, { error: sentence });
  return maxLength === undefined ? text : text.max(maxLength, { error: sentence });
}

/**
 * A calendar day an editor writes as `2026-11-20`, refused with `sentence` however it is wrong
 * (missing, empty, in other words such as "20 November 2026"). YAML reads a day written bare as a
 * date and a quoted one as text: both are taken, as midnight UTC of that day. (A bare day that
 * does not exist, 2026-02-30, YAML itself turns into the next days; a quoted one is refused.)
 */
function calendarDay(sentence: string) {
  return z
    .union([z.date({ error: sentence }), z.iso.date({ error: sentence })], { error: sentence })
    .transform((day) => (typeof day === 'string' ? new Date(`${day}T00:00:00Z`) : day));
}

/**
 * Editor-owned content. A bad edit fails `astro build` with the file, the entry and the field
 * named, and the field's own sentence, instead of breaking a page at run time (the README's
 * section for editors says what `npm run dev` does).
 */
const offers = defineCollection({
  loader: file('src/content/offers.yaml'),
  schema: z.object({
    id: z.enum(partnerSlugs, {
      error: `every offer needs the id of a partner, one of ${partnerSlugs.join(', ')}`,
    }),
    title: editorText('every offer needs a title, the name of the offer'),
    description: editorText('every offer needs a description, a sentence about the offer'),
    url: z.url({
      protocol: /^https$/,
      error: 'every offer needs the partner’s address, starting with https://',
    }),
  }),
});

/**
 * The words of the three welcome pages, one Markdown file each (`src/content/welcome/`): a title,
 * its step in the sequence, a lead sentence, and the body. See the README's section for editors.
 */
const welcome = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/welcome' }),
  schema: z.object({
    title: editorText('every welcome page needs a title (at most 80 characters)', 80),
    step: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      error: 'every welcome page needs a step, its place in the sequence: 1, 2 or 3',
    }),
    lead: editorText(
      'every welcome page needs a lead, one sentence under the title (at most 200 characters)',
      200,
    ),
  }),
});

/**
 * The site's legal pages, one Markdown file each (`src/content/legal/`): today the terms of
 * service (`terms.md`, the Terms page), which the sign-up form asks members to accept. A title, the
 * day they last changed (shown as "Last updated"), an optional lead, and the body. See the
 * README's section for editors.
 */
const legal = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/legal' }),
  schema: z.object({
    title: editorText('every legal page needs a title (at most 80 characters)', 80),
    updated: calendarDay(
      'every legal page needs the day it last changed, as year-month-day: updated: 2026-11-20',
    ),
    lead: editorText(
      'a lead, when there is one, is one sentence under the title (at most 200 characters)',
      200,
    ).optional(),
  }),
});

export const collections = { offers, welcome, legal };
