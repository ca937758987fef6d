import { z } from 'astro/zod';
import type { FieldRule, Fields } from './fields';

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

function wholeNumber(sentence: string, min: number, max: number) {
  return z.int({ error: sentence }).min(min, { error: sentence }).max(max, { error: sentence });
}

/** The zod schema of one field (src/content/fields.ts), refusing with the field's sentence. */
function schemaOf(rule: FieldRule) {
  switch (rule.kind) {
    case 'text': {
      const text = editorText(rule.sentence, rule.maxLength);
      return rule.optional ? text.optional() : text;
    }
    case 'whole-number':
      return wholeNumber(rule.sentence, rule.min, rule.max);
    case 'choice':
      return z.enum(rule.options, { error: rule.sentence });
    case 'https-address':
      return z.url({ protocol: /^https$/, error: rule.sentence });
    case 'day':
      return calendarDay(rule.sentence);
  }
}

type SchemaOf<Rule extends FieldRule> = Rule extends { kind: 'text'; optional: true }
  ? z.ZodOptional<ReturnType<typeof editorText>>
  : Rule extends { kind: 'text' }
    ? ReturnType<typeof editorText>
    : Rule extends { kind: 'whole-number' }
      ? ReturnType<typeof wholeNumber>
      : Rule extends {
            kind: 'choice';
            options: infer Options extends readonly [string, ...string[]];
          }
        ? z.ZodEnum<{ [Option in Options[number]]: Option }>
        : Rule extends { kind: 'https-address' }
          ? z.ZodURL
          : ReturnType<typeof calendarDay>;

/** The zod schema of an entry: one field of the collection's data for each rule. */
export function entrySchema<Definitions extends Fields>(
  fields: Definitions,
): z.ZodObject<{ [Name in keyof Definitions]: SchemaOf<Definitions[Name]> }> {
  return z.object(
    Object.fromEntries(Object.entries(fields).map(([name, rule]) => [name, schemaOf(rule)])),
  ) as z.ZodObject<{ [Name in keyof Definitions]: SchemaOf<Definitions[Name]> }>;
}
