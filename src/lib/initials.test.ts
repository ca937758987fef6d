import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Avery Jordan')).toBe('AJ');
  });

  it('skips the middle names', () => {
    expect(initialsOf('mary ann van der berg')).toBe('MB');
  });

  it('gives one letter for a single word', () => {
    expect(initialsOf('Cher')).toBe('C');
  });

  it('ignores surrounding and repeated spaces', () => {
    expect(initialsOf('  jo   ellis  ')).toBe('JE');
  });

  it('keeps letters outside the basic alphabet whole', () => {
    expect(initialsOf('Élodie Øster')).toBe('ÉØ');
  });

  it('gives an empty string for no name', () => {
    expect(initialsOf('')).toBe('');
    expect(initialsOf(undefined)).toBe('');
  });
});
