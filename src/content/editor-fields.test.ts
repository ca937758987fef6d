import { describe, expect, it } from 'vitest';
import { editorFields } from './editor-fields';
import { legalFields, offerFields, welcomeFields, type FieldRule, type Fields } from './fields';
import { entrySchema } from './schema-fields';

/** A field the editor checks as the editor types: it answers the value, or throws its refusal. */
interface EditorField {
  validate(value: unknown): unknown;
  serialize(value: unknown): { value: unknown };
}

/** What the editor says of `value` in `field`: `undefined` when it takes it. */
function editorRefusal(field: EditorField, value: unknown): string | undefined {
  try {
    field.validate(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** What the build says of `value` in the field `name` of `fields`: `undefined` when it takes it. */
function buildRefusal(fields: Fields, name: string, value: unknown): string | undefined {
  const shape = entrySchema(fields).shape as Record<string, { safeParse(value: unknown): unknown }>;
  const result = shape[name]?.safeParse(value) as
    { success: true } | { success: false; error: { issues: { message: string }[] } };
  return result.success ? undefined : (result.error.issues[0]?.message ?? 'refused');
}

/** A value as a test's name shows it: long text by its length. */
const shortly = (value: unknown): string =>
  typeof value === 'string' && value.length > 20
    ? `${JSON.stringify(value.slice(0, 4))}… (${String(value.length)} UTF-16 units)`
    : JSON.stringify(value);

/** Values worth trying for a rule: each side of each of its limits. */
function samplesFor(rule: FieldRule): unknown[] {
  switch (rule.kind) {
    case 'text': {
      const max = rule.maxLength ?? 300;
      return [
        'a',
        'x'.repeat(max),
        'x'.repeat(max + 1),
        // One character each, though two UTF-16 units, as both sides count.
        '😀'.repeat(max),
        '😀'.repeat(max + 1),
        '😀'.repeat(Math.floor(max / 2) + 1),
        'line one\nline two',
      ];
    }
    case 'whole-number':
      return [rule.min - 1, rule.min, rule.max, rule.max + 1];
    case 'choice':
      return [...rule.options];
    case 'https-address':
      return [
        'https://partners.example.com/auto-insurance',
        'http://partners.example.com/auto-insurance',
        'partners.example.com/auto-insurance',
        'https://',
        'https://partners example.com',
      ];
    case 'day':
      return ['2026-11-20', '2026-02-28'];
  }
}

const definitions = { offerFields, welcomeFields, legalFields } as const;

describe.each(Object.entries(definitions))('the editor’s fields of %s', (_name, fields) => {
  const editor = editorFields(fields) as Record<string, EditorField>;

  it('are the fields the content collections check, in the same order', () => {
    expect(Object.keys(editor)).toEqual(Object.keys(entrySchema(fields).shape));
  });

  describe.each(Object.entries(fields as Fields))('%s', (name, rule) => {
    const field = editor[name];
    if (!field) throw new Error(`no editor field for ${name}`);

    it.each(samplesFor(rule).map((value) => [shortly(value), value]))(
      'takes or refuses %s as the build does',
      (_label, value) => {
        expect(editorRefusal(field, value) === undefined).toBe(
          buildRefusal(fields, name, value) === undefined,
        );
      },
    );

    if (rule.kind === 'text' && rule.optional) {
      it('may be left empty: the editor leaves it out of the file, and the build takes that', () => {
        expect(editorRefusal(field, '')).toBeUndefined();
        expect(field.serialize('').value).toBeUndefined();
        expect(buildRefusal(fields, name, undefined)).toBeUndefined();
      });
    } else if (rule.kind === 'text') {
      it('must be filled in, on both sides', () => {
        expect(editorRefusal(field, '')).toBeDefined();
        expect(buildRefusal(fields, name, '')).toBe(rule.sentence);
      });
    }

    if (rule.kind === 'text' && rule.maxLength !== undefined) {
      it('refuses text over its length with the rule’s own sentence', () => {
        const tooLong = 'x'.repeat((rule.maxLength ?? 0) + 1);
        expect(editorRefusal(field, tooLong)).toBe(rule.sentence);
        expect(buildRefusal(fields, name, tooLong)).toBe(rule.sentence);
      });
    }
  });
});
