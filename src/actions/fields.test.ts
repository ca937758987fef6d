import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { unsavableCharacterMessage } from '../lib/messages';
import {
  emailField,
  formText,
  isStorableText,
  recoveryCodeField,
  rememberDeviceField,
  tokenField,
} from './fields';

const loneHighSurrogate = '\uD83D';
const loneLowSurrogate = '\uDE00';

/** The messages a form schema gives, by field, as the error summary lists them. */
function messagesOf(schema: z.ZodType, form: Record<string, unknown>): Record<string, string[]> {
  const result = schema.safeParse(form);
  if (result.success) return {};
  return z.flattenError(result.error).fieldErrors;
}

const requestForm = z.object({
  title: formText(z.string().trim().min(1, 'Enter a title'), unsavableCharacterMessage('Title')),
  details: formText(z.string().trim().max(10, 'Too long'), unsavableCharacterMessage('Details')),
});

describe('isStorableText', () => {
  it('accepts any text with neither U+0000 nor a lone surrogate, control characters included', () => {
    for (const text of [
      '',
      'plain',
      'tab\tand\nnew line',
      '\u0001\u001F\u007F',
      '\u202Eevil',
      '😀',
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('refuses U+0000 anywhere in the text', () => {
    for (const text of ['\u0000', 'a\u0000', '\u0000b', 'a\u0000b']) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('refuses half of a surrogate pair, high or low, alone or out of order', () => {
    for (const text of [
      loneHighSurrogate,
      loneLowSurrogate,
      `a${loneHighSurrogate}b`,
      `${loneLowSurrogate}${loneHighSurrogate}`,
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe('a form text field', () => {
  it('refuses U+0000 under its own field, in the words the field was given', () => {
    expect(messagesOf(requestForm, { title: 'Book\u0000 a table', details: 'fine' })).toEqual({
      title: [
        'Title contains a character that cannot be saved. Remove any null characters or broken emoji',
      ],
    });
  });

  it('refuses a lone surrogate the same way', () => {
    expect(messagesOf(requestForm, { title: 'fine', details: `x${loneLowSurrogate}` })).toEqual({
      details: [unsavableCharacterMessage('Details')],
    });
  });

  it("never shows the API's field path or its sentence", () => {
    const messages = Object.values(messagesOf(requestForm, { title: '\u0000', details: '' }))
      .flat()
      .join(' ');
    expect(messages).not.toMatch(/request\.|U\+0000|surrogate/);
  });

  it("gives only that message, without the field's own rules (which would read the same text)", () => {
    expect(messagesOf(requestForm, { title: '\u0000', details: 'x'.repeat(11) })).toEqual({
      title: [unsavableCharacterMessage('Title')],
      details: ['Too long'],
    });
    expect(messagesOf(requestForm, { title: 'ok', details: `${'x'.repeat(11)}\u0000` })).toEqual({
      details: [unsavableCharacterMessage('Details')],
    });
  });

  it('passes storable text on unchanged to its own rules, and reads an empty field as empty', () => {
    expect(requestForm.parse({ title: '  Book a table \u202E ', details: null })).toEqual({
      title: 'Book a table \u202E',
      details: '',
    });
    expect(messagesOf(requestForm, { title: null, details: null })).toEqual({
      title: ['Enter a title'],
    });
  });

  it('names the answer when the field was given no words of its own', () => {
    const schema = z.object({ category_id: formText(z.string().trim().min(1)) });
    expect(messagesOf(schema, { category_id: 'travel\u0000' })).toEqual({
      category_id: [
        'Your answer contains a character that cannot be saved. Remove any null characters or broken emoji',
      ],
    });
  });

  it('names the email address and calls a link with such text not valid', () => {
    const schema = z.object({ email: emailField, token: tokenField });
    expect(
      messagesOf(schema, { email: 'name@example.com\u0000', token: `a${loneHighSurrogate}` }),
    ).toEqual({
      email: [unsavableCharacterMessage('Email address')],
      token: ['This link is not valid'],
    });
  });
});

describe('recoveryCodeField', () => {
  it('takes a code as printed, in capitals, with a space or without the hyphen', () => {
    for (const code of [
      'abcde-23456',
      'ABCDE-23456',
      'abcde 23456',
      'abcde23456',
      ' abcde-23456 ',
    ]) {
      expect(recoveryCodeField.safeParse(code).success, code).toBe(true);
    }
  });

  it('says what a code looks like when the text is not one, and asks for one when empty', () => {
    const form = z.object({ code: recoveryCodeField });
    expect(messagesOf(form, { code: '12345' })).toEqual({
      code: ['A recovery code is 10 letters and numbers, like abcde-23456'],
    });
    expect(messagesOf(form, { code: 'abcde-2345!' })).toEqual({
      code: ['A recovery code is 10 letters and numbers, like abcde-23456'],
    });
    expect(messagesOf(form, { code: null })).toEqual({
      code: ['Enter one of your recovery codes'],
    });
  });
});

describe('rememberDeviceField', () => {
  it('is true only for the ticked box, false when it is left out', () => {
    const form = z.object({ remember_device: rememberDeviceField });
    expect(form.parse({ remember_device: 'yes' })).toEqual({ remember_device: true });
    expect(form.parse({ remember_device: null })).toEqual({ remember_device: false });
    expect(form.parse({})).toEqual({ remember_device: false });
    expect(form.safeParse({ remember_device: 'on' }).success).toBe(false);
  });
});
