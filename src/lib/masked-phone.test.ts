import { describe, expect, it } from 'vitest';
import { maskedPhone } from './masked-phone';

describe('maskedPhone', () => {
  it('shows only the last two digits', () => {
    expect(maskedPhone('67')).toBe('(•••) •••-••67');
    expect(maskedPhone('5551234567')).toBe('(•••) •••-••67');
  });
});
