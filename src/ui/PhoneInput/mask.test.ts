import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SLOT_CHAR,
  applyMaskedEdit,
  describeEdit,
  fitToSlots,
  formatMasked,
  isMaskComplete,
  parseMask,
  unmask,
  type MaskEdit,
} from './mask';

const US_PHONE = parseMask('(999) 999-9999');

/** Types one character at the caret of the shown text, as a browser would. */
function typeAt(raw: string, caret: number, char: string, parsed = US_PHONE) {
  const edit: MaskEdit = { from: caret, to: caret, inserted: char, direction: 'forward' };
  return applyMaskedEdit(parsed, raw, edit);
}

describe('parseMask', () => {
  it('finds the slots and the literals of a mask', () => {
    expect(US_PHONE.slotPositions).toEqual([1, 2, 3, 6, 7, 8, 10, 11, 12, 13]);
    expect(US_PHONE.requiredSlots).toBe(10);
    expect(US_PHONE.tokens[0]).toEqual({ kind: 'literal', char: '(', optional: false });
  });

  it('makes everything after a question mark optional', () => {
    const parsed = parseMask('999?-99');
    expect(parsed.slotPositions).toHaveLength(5);
    expect(parsed.requiredSlots).toBe(3);
    expect(parsed.tokens.map((token) => token.optional)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('takes 9 as a digit, a as a letter and * as either', () => {
    expect(fitToSlots(parseMask('9'), 'x7', 0, false)).toBe('7');
    expect(fitToSlots(parseMask('a'), '7x', 0, false)).toBe('x');
    expect(fitToSlots(parseMask('**'), '-x7', 0, false)).toBe('x7');
  });

  it('takes letters beyond ASCII as letters', () => {
    expect(fitToSlots(parseMask('aa'), 'éß', 0, false)).toBe('éß');
  });
});

describe('formatMasked', () => {
  it('uses the underscore as the slot character by default', () => {
    expect(DEFAULT_SLOT_CHAR).toBe('_');
  });

  it('shows the whole mask with placeholders while the field has focus', () => {
    expect(formatMasked('555', US_PHONE, '_', true)).toBe('(555) ___-____');
    expect(formatMasked('', US_PHONE, '_', true)).toBe('(___) ___-____');
  });

  it('shows another slot character when given one', () => {
    expect(formatMasked('5', US_PHONE, '#', true)).toBe('(5##) ###-####');
  });

  it('stops before the first unfilled slot otherwise', () => {
    expect(formatMasked('555', US_PHONE, '_', false)).toBe('(555');
    expect(formatMasked('5551', US_PHONE, '_', false)).toBe('(555) 1');
    expect(formatMasked('', US_PHONE, '_', false)).toBe('');
  });

  it('shows a complete value in full', () => {
    expect(formatMasked('5551234567', US_PHONE, '_', false)).toBe('(555) 123-4567');
  });
});

describe('applyMaskedEdit', () => {
  it('fills the next slot and puts the caret before the slot after it', () => {
    expect(typeAt('', 1, '5')).toEqual({ raw: '5', caret: 2 });
  });

  it('jumps the caret over literals', () => {
    expect(typeAt('55', 3, '5')).toEqual({ raw: '555', caret: 6 });
  });

  it('ignores a character the slot refuses', () => {
    expect(typeAt('55', 3, 'x')).toEqual({ raw: '55', caret: 3 });
  });

  it('appends when typing in the placeholders past the value', () => {
    expect(typeAt('5', 12, '6').raw).toBe('56');
  });

  it('ignores characters once the mask is full', () => {
    expect(typeAt('5551234567', 14, '8').raw).toBe('5551234567');
  });

  it('shifts the characters after an insertion', () => {
    expect(typeAt('5551234567', 2, '9').raw).toBe('5955123456');
  });

  it('deletes the slot before the caret on Backspace', () => {
    const edit: MaskEdit = { from: 2, to: 3, inserted: '', direction: 'backward' };
    expect(applyMaskedEdit(US_PHONE, '555', edit)).toEqual({ raw: '55', caret: 2 });
  });

  it('deletes the digit before a literal when Backspace removes only the literal', () => {
    const edit: MaskEdit = { from: 5, to: 6, inserted: '', direction: 'backward' };
    expect(applyMaskedEdit(US_PHONE, '5551', edit)).toEqual({ raw: '551', caret: 3 });
  });

  it('deletes the digit after a literal when Delete removes only the literal', () => {
    const edit: MaskEdit = { from: 4, to: 5, inserted: '', direction: 'forward' };
    expect(applyMaskedEdit(US_PHONE, '5551', edit).raw).toBe('555');
  });

  it('fits a pasted formatted number, literals and all', () => {
    const edit: MaskEdit = { from: 0, to: 14, inserted: '(555) 123-4567', direction: 'forward' };
    expect(applyMaskedEdit(US_PHONE, '', edit)).toEqual({ raw: '5551234567', caret: 14 });
  });

  it('fits a pasted number with other separators', () => {
    const edit: MaskEdit = { from: 0, to: 0, inserted: '555.123.4567', direction: 'forward' };
    expect(applyMaskedEdit(US_PHONE, '', edit).raw).toBe('5551234567');
  });

  it('takes a whole number pasted into a partly filled field as the new number', () => {
    const edit: MaskEdit = { from: 8, to: 8, inserted: '(555) 010-3341', direction: 'forward' };
    expect(applyMaskedEdit(US_PHONE, '55512', edit)).toEqual({ raw: '5550103341', caret: 14 });
  });

  it('still inserts part of a number at the caret', () => {
    const edit: MaskEdit = { from: 8, to: 8, inserted: '345', direction: 'forward' };
    expect(applyMaskedEdit(US_PHONE, '55512', edit).raw).toBe('55512345');
  });

  it('takes a single typed digit as a digit even where the mask has that digit as a literal', () => {
    const parsed = parseMask('+1 (999) 999-9999');
    expect(typeAt('', 0, '1', parsed).raw).toBe('1');
  });

  it('drops shifted characters that their new slot refuses', () => {
    const parsed = parseMask('a9a9');
    const edit: MaskEdit = { from: 0, to: 1, inserted: '', direction: 'backward' };
    expect(applyMaskedEdit(parsed, 'b2c3', edit).raw).toBe('c3');
  });
});

describe('describeEdit', () => {
  it('reads typing at a caret', () => {
    expect(describeEdit('(5__) ___-____', '(55__) ___-____', { start: 2, end: 2 }, 3)).toEqual({
      from: 2,
      to: 2,
      inserted: '5',
      direction: 'forward',
    });
  });

  it('reads Backspace', () => {
    expect(describeEdit('(55_) ___', '(5_) ___', { start: 3, end: 3 }, 2)).toMatchObject({
      from: 2,
      to: 3,
      inserted: '',
      direction: 'backward',
    });
  });

  it('reads Delete', () => {
    expect(describeEdit('(55_) ___', '(5_) ___', { start: 2, end: 2 }, 2)).toMatchObject({
      from: 2,
      to: 3,
      direction: 'forward',
    });
  });

  it('reads a selection replaced by typing', () => {
    expect(describeEdit('(555) ___', '(7) ___', { start: 1, end: 4 }, 2)).toMatchObject({
      from: 1,
      to: 4,
      inserted: '7',
    });
  });

  it('compares the texts when the selection before is unknown', () => {
    expect(describeEdit('', '5551234567', null, 10)).toEqual({
      from: 0,
      to: 0,
      inserted: '5551234567',
      direction: 'backward',
    });
  });
});

describe('unmask and isMaskComplete', () => {
  it('recovers the raw value from a formatted one', () => {
    expect(unmask('(555) 123-4567', '(999) 999-9999')).toBe('5551234567');
  });

  it('counts a value complete once every required slot is filled', () => {
    const parsed = parseMask('999?-99');
    expect(isMaskComplete('99', parsed)).toBe(false);
    expect(isMaskComplete('999', parsed)).toBe(true);
  });
});
