import { describe, expect, it } from 'vitest';
import { nextChipSelected } from './chip-state';

describe('nextChipSelected', () => {
  it('toggles a button chip on click', () => {
    expect(nextChipSelected('button', false, 'click')).toBe(true);
    expect(nextChipSelected('button', true, 'click')).toBe(false);
  });

  it('leaves a button chip alone on change', () => {
    expect(nextChipSelected('button', false, 'change')).toBe(false);
  });

  it('selects a radio chip on change, even when already selected', () => {
    expect(nextChipSelected('radio', false, 'change')).toBe(true);
    expect(nextChipSelected('radio', true, 'change')).toBe(true);
  });

  it('does not select a radio chip on a mere click', () => {
    expect(nextChipSelected('radio', false, 'click')).toBe(false);
  });

  it('toggles a checkbox chip on change', () => {
    expect(nextChipSelected('checkbox', false, 'change')).toBe(true);
    expect(nextChipSelected('checkbox', true, 'change')).toBe(false);
  });

  it('does not toggle a checkbox chip on a mere click', () => {
    expect(nextChipSelected('checkbox', true, 'click')).toBe(true);
  });

  it('never selects a link chip', () => {
    expect(nextChipSelected('link', false, 'click')).toBe(false);
    expect(nextChipSelected('external-link', false, 'change')).toBe(false);
  });

  it('never changes a disabled chip', () => {
    expect(nextChipSelected('button', false, 'click', true)).toBe(false);
    expect(nextChipSelected('radio', false, 'change', true)).toBe(false);
    expect(nextChipSelected('checkbox', true, 'change', true)).toBe(true);
  });
});
