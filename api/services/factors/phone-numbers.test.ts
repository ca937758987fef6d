import { describe, expect, it } from 'vitest';
import { formatUsPhoneNumber, normaliseUsPhoneNumber, phoneLastDigits } from './phone-numbers.ts';

describe('normaliseUsPhoneNumber', () => {
  it.each([
    '(555) 123-4567',
    '555-123-4567',
    '555.123.4567',
    '5551234567',
    '+15551234567',
    '+1 (555) 123-4567',
    '1 555 123 4567',
    '  555 123 4567 ',
  ])('reads %j as +15551234567', (typed) => {
    expect(normaliseUsPhoneNumber(typed)).toBe('+15551234567');
  });

  it.each([
    '',
    '555123456',
    '555123456789',
    '+25551234567',
    '+44 20 7946 0958',
    '(055) 123-4567',
    '(155) 123-4567',
    '555-123-456x',
    '555/123/4567',
    '++15551234567',
  ])('refuses %j', (typed) => {
    expect(normaliseUsPhoneNumber(typed)).toBeNull();
  });
});

describe('formatUsPhoneNumber', () => {
  it('writes an E.164 US number as people read it', () => {
    expect(formatUsPhoneNumber('+15551234567')).toBe('(555) 123-4567');
  });

  it('leaves anything else as it is', () => {
    expect(formatUsPhoneNumber('+442079460958')).toBe('+442079460958');
  });
});

describe('phoneLastDigits', () => {
  it('is the last two digits', () => {
    expect(phoneLastDigits('+15551234567')).toBe('67');
  });
});
