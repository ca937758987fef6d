import { fields } from '@keystatic/core';
import type { BodyFormatting, FieldRule, Fields } from './fields';

/**
 * Text of at most `maxLength` characters, as a pattern rather than Keystatic's own length rule, so
 * that the editor refuses it with the field's sentence instead of words of its own ("Title must be
 * no longer than 80 characters"). With the `u` flag the pattern counts code points, as zod does (an
 * emoji is one character, not two).
 * Empty text is Keystatic's to refuse in a required field (it marks the field required), and is
 * left out of the file in an optional one.
 */
const lengthPattern = (maxLength: number | undefined): RegExp =>
  new RegExp(`^[\\s\\S]{0,${maxLength === undefined ? '' : String(maxLength)}}$`, 'u');

/** What the editor's list shows for a value such as `term-life-insurance`: "Term life insurance". */
export const readable = (value: string): string => {
  const words = value.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The Keystatic field for one rule of src/content/fields.ts. Keystatic checks it as the editor
 * types and refuses to save while it fails; the build checks the file again with the zod schema
 * made from the same rule.
 */
function editorFieldOf(rule: FieldRule) {
  switch (rule.kind) {
    case 'text':
      return fields.text({
        label: rule.label,
        multiline: rule.multiline ?? false,
        validation: {
          ...(rule.optional ? {} : { isRequired: true }),
          pattern: { regex: lengthPattern(rule.maxLength), message: rule.sentence },
        },
      });
    case 'whole-number':
      return fields.integer({
        label: rule.label,
        description: rule.sentence,
        validation: { isRequired: true, min: rule.min, max: rule.max },
      });
    case 'choice':
      return fields.select({
        label: rule.label,
        options: rule.options.map((value) => ({ label: readable(value), value })),
        defaultValue: rule.options[0],
      });
    case 'https-address':
      return fields.text({
        label: rule.label,
        validation: {
          isRequired: true,
          pattern: { regex: /^https:\/\/[^\s/?#]+\S*$/, message: rule.sentence },
        },
      });
    case 'day':
      return fields.date({
        label: rule.label,
        description: rule.sentence,
        validation: { isRequired: true },
      });
  }
}

/** The editor's fields for an entry: one for each rule, in the order of the definitions. */
export function editorFields<Definitions extends Fields>(
  definitions: Definitions,
): { [Name in keyof Definitions]: ReturnType<typeof editorFieldOf> } {
  return Object.fromEntries(
    Object.entries(definitions).map(([name, rule]) => [name, editorFieldOf(rule)]),
  ) as { [Name in keyof Definitions]: ReturnType<typeof editorFieldOf> };
}

/**
 * A page's body in Markdown, with the toolbar offering only the formatting its page styles:
 * paragraphs, bold, italic, lists and links, and the headings it allows. No images, tables or
 * code: the pages have no styles for them, and no component of the editor's own, which a
 * Markdown page could not render.
 */
export function editorBody({ label, headingLevels }: BodyFormatting) {
  return fields.markdoc({
    label,
    extension: 'md',
    options: {
      bold: true,
      italic: true,
      link: true,
      orderedList: true,
      unorderedList: true,
      heading: headingLevels.length > 0 ? headingLevels : false,
      strikethrough: false,
      code: false,
      blockquote: false,
      table: false,
      image: false,
      divider: false,
      codeBlock: false,
    },
  });
}
