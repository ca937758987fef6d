import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { load } from 'js-yaml';
import { legalFields, offerFields, welcomeFields } from './content/fields';
import { readWhenSaved } from './content/saved-whole';
import { entrySchema } from './content/schema-fields';

/**
 * Editor-owned content, whose fields are defined once in `src/content/fields.ts` for these
 * schemas and for the browser editor alike. A bad edit fails `astro build` with the file, the
 * entry and the field named, and the field's own sentence, instead of breaking a page at run time
 * (the README's section for editors says what `npm run dev` does).
 */

/**
 * The partner offers, in `src/content/offers.yaml`: one entry per partner, under its id, the form
 * the editor saves (one group of fields per partner). Each becomes an offer with that id, which
 * the schema checks is a partner's.
 */
const offers = defineCollection({
  loader: readWhenSaved(
    file('src/content/offers.yaml', {
      parser: (text) => {
        const document: unknown = load(text);
        if (typeof document !== 'object' || document === null || Array.isArray(document)) {
          throw new Error('src/content/offers.yaml: each offer is under its partner’s id');
        }
        return Object.entries(document).map(([id, offer]: [string, unknown]) => ({
          ...(typeof offer === 'object' && offer !== null ? offer : {}),
          id,
        }));
      },
    }),
  ),
  schema: entrySchema(offerFields),
});

/**
 * The words of the three welcome pages, one Markdown file each (`src/content/welcome/`): a title,
 * its step in the sequence, a lead sentence, and the body. See the README's section for editors.
 */
const welcome = defineCollection({
  loader: readWhenSaved(glob({ pattern: '*.md', base: 'src/content/welcome' })),
  schema: entrySchema(welcomeFields),
});

/**
 * The site's legal pages, one Markdown file each (`src/content/legal/`): today the terms of
 * service (`terms.md`, the Terms page), which the sign-up form asks members to accept. A title, the
 * day they last changed (shown as "Last updated"), an optional lead, and the body. See the
 * README's section for editors.
 */
const legal = defineCollection({
  loader: readWhenSaved(glob({ pattern: '*.md', base: 'src/content/legal' })),
  schema: entrySchema(legalFields),
});

export const collections = { offers, welcome, legal };
