import { PARTNER_OFFER_IDS } from '../../contract/partner-offers.ts';

/**
 * Every field an editor fills in, defined once: its label in the editor, its rule, and the
 * sentence that states the rule. `src/content.config.ts` turns these into the collections' zod
 * schemas, which `astro build` and `npm run dev` check every file against;
 * `src/content/editor-fields.ts` turns the same definitions into the fields of the browser editor
 * (`keystatic.config.ts`), which refuses a bad value with the same sentence before it is saved.
 * Neither side states a rule of its own.
 */
export type FieldRule =
  /** Text on one line: not empty, at most `maxLength` characters (UTF-16 units, as zod counts). */
  | {
      readonly kind: 'text';
      readonly label: string;
      readonly sentence: string;
      readonly maxLength?: number;
      /** The editor offers several lines for it (a description); the files take any text. */
      readonly multiline?: true;
      /** The field may be left out; when present, the rule holds. */
      readonly optional?: true;
    }
  /** A whole number from `min` to `max`. */
  | {
      readonly kind: 'whole-number';
      readonly label: string;
      readonly sentence: string;
      readonly min: number;
      readonly max: number;
    }
  /** One of a fixed list of values, chosen from a list in the editor. */
  | {
      readonly kind: 'choice';
      readonly label: string;
      readonly sentence: string;
      readonly options: readonly [string, ...string[]];
    }
  /** An address starting with `https://`. */
  | { readonly kind: 'https-address'; readonly label: string; readonly sentence: string }
  /** A calendar day, written year-month-day. */
  | { readonly kind: 'day'; readonly label: string; readonly sentence: string };

export type Fields = Readonly<Record<string, FieldRule>>;

/** The formatting a page's body may use, as the editor's toolbar offers it. */
export interface BodyFormatting {
  readonly label: string;
  /** The heading levels the body may use under the page's own heading; none if empty. */
  readonly headingLevels: readonly 2[];
}

/** A partner offer's words and address, in `src/content/offers.yaml`. */
export const offerDetailFields = {
  title: {
    kind: 'text',
    label: 'Title',
    sentence: 'every offer needs a title, the name of the offer',
  },
  description: {
    kind: 'text',
    label: 'Description',
    sentence: 'every offer needs a description, a sentence about the offer',
    multiline: true,
  },
  url: {
    kind: 'https-address',
    label: 'Address',
    sentence: 'every offer needs the partner’s address, starting with https://',
  },
} as const satisfies Fields;

/**
 * A partner offer on the Dashboard: its details, under the id of its partner (the file is keyed by
 * it, and the editor shows one group of fields per partner).
 */
export const offerFields = {
  id: {
    kind: 'choice',
    label: 'Partner',
    sentence: `every offer needs the id of a partner, one of ${PARTNER_OFFER_IDS.join(', ')}`,
    options: PARTNER_OFFER_IDS,
  },
  ...offerDetailFields,
} as const satisfies Fields;

/** A welcome page's words (`src/content/welcome/<page>.md`), above its body. */
export const welcomeFields = {
  title: {
    kind: 'text',
    label: 'Title',
    sentence: 'every welcome page needs a title (at most 80 characters)',
    maxLength: 80,
  },
  step: {
    kind: 'whole-number',
    label: 'Step',
    sentence: 'every welcome page needs a step, its place in the sequence: 1, 2 or 3',
    min: 1,
    max: 3,
  },
  lead: {
    kind: 'text',
    label: 'Lead',
    sentence:
      'every welcome page needs a lead, one sentence under the title (at most 200 characters)',
    maxLength: 200,
    multiline: true,
  },
} as const satisfies Fields;

/** Paragraphs, bold, italic, lists and links: the welcome pages have their own heading. */
export const welcomeBody: BodyFormatting = { label: 'Body', headingLevels: [] };

/** A legal page's words (`src/content/legal/<page>.md`), above its body. */
export const legalFields = {
  title: {
    kind: 'text',
    label: 'Title',
    sentence: 'every legal page needs a title (at most 80 characters)',
    maxLength: 80,
  },
  updated: {
    kind: 'day',
    label: 'Last updated',
    sentence:
      'every legal page needs the day it last changed, as year-month-day: updated: 2026-11-20',
  },
  lead: {
    kind: 'text',
    label: 'Lead',
    sentence: 'a lead, when there is one, is one sentence under the title (at most 200 characters)',
    maxLength: 200,
    multiline: true,
    optional: true,
  },
} as const satisfies Fields;

/** Sections under the page's heading, besides what the welcome pages allow. */
export const legalBody: BodyFormatting = { label: 'Body', headingLevels: [2] };
