/**
 * Input masks: `9` a digit, `a` a letter, `*` a letter or a digit, `?` marks the rest of the mask
 * optional; any other character is a literal shown as is.
 *
 * The model: the "raw" value is the run of characters filling the mask's slots, in order and
 * without gaps. What the field shows is derived from it, with the slot character standing in for
 * slots not yet filled while the field has focus.
 */

/** The character shown in an unfilled slot unless another is given. */
export const DEFAULT_SLOT_CHAR = '_';

const SLOT_PATTERNS: Readonly<Record<string, RegExp>> = {
  '9': /^[0-9]$/,
  a: /^\p{L}$/u,
  '*': /^[\p{L}0-9]$/u,
};

const OPTIONAL_MARK = '?';

/** One position of a mask. */
type MaskToken =
  | { kind: 'slot'; pattern: RegExp; optional: boolean }
  | { kind: 'literal'; char: string; optional: boolean };

/** A mask split into positions, with where its slots are. */
interface ParsedMask {
  tokens: readonly MaskToken[];
  /** For each slot, its position in the shown text (which is also its token index). */
  slotPositions: readonly number[];
  /** Slots before the `?`; a value is complete when these are filled. */
  requiredSlots: number;
}

/** An edit of the shown text: the range replaced, in shown-text positions, and what replaced it. */
export interface MaskEdit {
  from: number;
  to: number;
  inserted: string;
  /** Which way a deletion went; decides which slot goes when only literals were removed. */
  direction: 'backward' | 'forward';
}

/** The raw value after an edit, and where the caret belongs in the shown text. */
interface MaskEditResult {
  raw: string;
  caret: number;
}

/** Splits a mask into positions. */
export function parseMask(mask: string): ParsedMask {
  const tokens: MaskToken[] = [];
  const slotPositions: number[] = [];
  let optional = false;
  let requiredSlots = 0;
  for (const char of mask) {
    if (char === OPTIONAL_MARK && !optional) {
      optional = true;
      continue;
    }
    const pattern = SLOT_PATTERNS[char];
    if (pattern) {
      slotPositions.push(tokens.length);
      tokens.push({ kind: 'slot', pattern, optional });
      if (!optional) requiredSlots += 1;
    } else {
      tokens.push({ kind: 'literal', char, optional });
    }
  }
  return { tokens, slotPositions, requiredSlots };
}

/**
 * Places characters into the slots from `startSlot` on, dropping those a slot refuses and those
 * past the last slot. With `matchLiterals`, a character equal to the mask's next literal is taken
 * as that literal (so a pasted "(555) 123-4567" fits "(999) 999-9999").
 */
export function fitToSlots(
  parsed: ParsedMask,
  chars: string,
  startSlot: number,
  matchLiterals: boolean,
): string {
  const { tokens, slotPositions } = parsed;
  let tokenIndex = startSlot === 0 ? 0 : (slotPositions[startSlot - 1] ?? tokens.length) + 1;
  if (!matchLiterals) tokenIndex = slotPositions[startSlot] ?? tokens.length;
  let fitted = '';
  for (const char of chars) {
    while (tokenIndex < tokens.length) {
      const token = tokens[tokenIndex];
      if (!token) break;
      if (token.kind === 'literal') {
        tokenIndex += 1;
        if (matchLiterals && char === token.char) break;
        continue;
      }
      if (token.pattern.test(char)) {
        fitted += char;
        tokenIndex += 1;
      }
      break;
    }
    if (startSlot + fitted.length >= slotPositions.length) break;
  }
  return fitted;
}

/** The raw value held by a (possibly formatted) text: what a server should store. */
export function unmask(value: string, mask: string): string {
  return fitToSlots(parseMask(mask), value, 0, true);
}

/** Whether every required slot is filled. */
export function isMaskComplete(raw: string, parsed: ParsedMask): boolean {
  return raw.length >= parsed.requiredSlots;
}

/**
 * The text to show for a raw value. With `placeholders` the whole mask shows, unfilled slots as
 * `slotChar` (while the field has focus); without, it stops before the first unfilled slot.
 */
export function formatMasked(
  raw: string,
  parsed: ParsedMask,
  slotChar: string,
  placeholders: boolean,
): string {
  let shown = '';
  let slot = 0;
  for (const token of parsed.tokens) {
    if (token.kind === 'literal') {
      if (!placeholders && slot >= raw.length) break;
      shown += token.char;
      continue;
    }
    const char = raw[slot];
    if (char === undefined) {
      if (!placeholders) break;
      shown += slotChar;
    } else {
      shown += char;
    }
    slot += 1;
  }
  return shown;
}

function slotsBefore(parsed: ParsedMask, position: number): number {
  let count = 0;
  for (const slotPosition of parsed.slotPositions) {
    if (slotPosition < position) count += 1;
  }
  return count;
}

/** Where the caret goes to type into slot `slot`: at it, or at the end when the mask is full. */
export function caretForSlot(parsed: ParsedMask, slot: number): number {
  return parsed.slotPositions[slot] ?? parsed.tokens.length;
}

/**
 * Applies an edit of the shown text to the raw value. Characters after the edit shift to follow
 * it (and drop out if their new slot refuses them); deleting only literals deletes the slot
 * beside them instead, so Backspace never gets stuck behind a ")".
 */
export function applyMaskedEdit(parsed: ParsedMask, raw: string, edit: MaskEdit): MaskEditResult {
  // A whole value arriving at once (pasted, autofilled, filled by a script) is the new value,
  // wherever the caret was: slotted in after what was there, it would keep the old start and
  // lose its own end.
  const whole = fitToSlots(parsed, edit.inserted, 0, true);
  if (edit.inserted.length > 1 && whole.length === parsed.slotPositions.length) {
    return { raw: whole, caret: caretForSlot(parsed, whole.length) };
  }
  let fromSlot = Math.min(slotsBefore(parsed, edit.from), raw.length);
  let toSlot = Math.min(slotsBefore(parsed, edit.to), raw.length);
  if (edit.inserted === '' && edit.to > edit.from && fromSlot === toSlot) {
    if (edit.direction === 'backward') fromSlot = Math.max(0, fromSlot - 1);
    else toSlot = Math.min(raw.length, toSlot + 1);
  }
  const head = raw.slice(0, fromSlot);
  // A single typed character is never taken as a literal: in "+1 (999)" a typed 1 is a digit.
  const inserted = fitToSlots(parsed, edit.inserted, fromSlot, edit.inserted.length > 1);
  const tail = fitToSlots(parsed, raw.slice(toSlot), fromSlot + inserted.length, false);
  const next = (head + inserted + tail).slice(0, parsed.slotPositions.length);
  return { raw: next, caret: caretForSlot(parsed, fromSlot + inserted.length) };
}

/**
 * Works out what edit turned `previous` into `next`, from the selection just before it and the
 * caret just after it; falls back to comparing the texts when the selection is unknown or does
 * not explain the change.
 */
export function describeEdit(
  previous: string,
  next: string,
  before: { start: number; end: number } | null,
  caretAfter: number,
): MaskEdit {
  if (before) {
    const { start, end } = before;
    let guess: MaskEdit;
    if (start !== end || next.length >= previous.length) {
      guess = {
        from: start,
        to: end,
        inserted: next.slice(start, caretAfter),
        direction: 'forward',
      };
    } else if (caretAfter < start) {
      guess = { from: caretAfter, to: start, inserted: '', direction: 'backward' };
    } else {
      guess = {
        from: start,
        to: start + previous.length - next.length,
        inserted: '',
        direction: 'forward',
      };
    }
    if (previous.slice(0, guess.from) + guess.inserted + previous.slice(guess.to) === next) {
      return guess;
    }
  }
  let prefix = 0;
  const shorter = Math.min(previous.length, next.length);
  while (prefix < shorter && previous[prefix] === next[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    previous[previous.length - 1 - suffix] === next[next.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  return {
    from: prefix,
    to: previous.length - suffix,
    inserted: next.slice(prefix, next.length - suffix),
    direction: 'backward',
  };
}
