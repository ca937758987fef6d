import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  formatRecoveryCode,
  generateRecoveryCode,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  normaliseRecoveryCodeInput,
  recoveryCodeMatches,
} from './recovery-code-store.ts';

describe('generateRecoveryCode', () => {
  it('draws 10 lowercase base32 letters', () => {
    for (let index = 0; index < 200; index += 1) {
      expect(generateRecoveryCode()).toMatch(/^[a-z2-7]{10}$/);
    }
  });

  it('draws every letter of the alphabet, and a different code each time', () => {
    const codes = Array.from({ length: 500 }, generateRecoveryCode);
    const letters = new Set(codes.join(''));

    expect(letters.size).toBe(32);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('formatRecoveryCode', () => {
  it('shows a code as two groups of five', () => {
    expect(formatRecoveryCode('abcdefgh23')).toBe('abcde-fgh23');
  });
});

describe('normaliseRecoveryCodeInput', () => {
  it('takes a code as it was shown, typed in capitals, with spaces or without the hyphen', () => {
    for (const typed of [
      'abcde-fgh23',
      ' ABCDE-FGH23 ',
      'abcde fgh23',
      'abcdefgh23',
      'Ab Cd-eFgH 23',
    ]) {
      expect(normaliseRecoveryCodeInput(typed)).toBe('abcdefgh23');
    }
  });

  it('leaves anything else as it is, for looksLikeRecoveryCode to refuse', () => {
    expect(looksLikeRecoveryCode(normaliseRecoveryCodeInput('abcde-fgh2'))).toBe(false);
    expect(looksLikeRecoveryCode(normaliseRecoveryCodeInput('abcde-fgh231'))).toBe(false);
    expect(looksLikeRecoveryCode(normaliseRecoveryCodeInput('abcde-fgh01'))).toBe(false);
    expect(looksLikeRecoveryCode(normaliseRecoveryCodeInput('123456'))).toBe(false);
    expect(looksLikeRecoveryCode(normaliseRecoveryCodeInput('abcde_fgh23'))).toBe(false);
  });
});

describe('hashRecoveryCode', () => {
  it('keeps the SHA-256 of a random 16-byte salt followed by the code, never the code', () => {
    const stored = hashRecoveryCode('abcdefgh23');

    expect(stored.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(stored.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.codeHash).toBe(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from(stored.salt, 'hex'), Buffer.from('abcdefgh23')]))
        .digest('hex'),
    );
    expect(JSON.stringify(stored)).not.toContain('abcdefgh23');
  });

  it('salts each code anew, so that one code hashes differently each time', () => {
    const first = hashRecoveryCode('abcdefgh23');
    const second = hashRecoveryCode('abcdefgh23');

    expect(first.salt).not.toBe(second.salt);
    expect(first.codeHash).not.toBe(second.codeHash);
  });
});

describe('recoveryCodeMatches', () => {
  const stored = hashRecoveryCode('abcdefgh23');

  it('is true for the code behind the hash, normalised', () => {
    expect(recoveryCodeMatches('abcdefgh23', stored)).toBe(true);
    expect(recoveryCodeMatches(normaliseRecoveryCodeInput('ABCDE-FGH23'), stored)).toBe(true);
  });

  it('is false for any other code, and for text that is not a code', () => {
    expect(recoveryCodeMatches('abcdefgh24', stored)).toBe(false);
    expect(recoveryCodeMatches('ABCDEFGH23', stored)).toBe(false);
    expect(recoveryCodeMatches('', stored)).toBe(false);
  });

  it('is false against a damaged hash rather than throwing', () => {
    expect(recoveryCodeMatches('abcdefgh23', { ...stored, codeHash: 'abcd' })).toBe(false);
  });
});
