import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, looksLikeToken, redactTokens } from './tokens.ts';

describe('generateToken', () => {
  it('gives 256 random bits as 43 base64url characters', () => {
    const token = generateToken();

    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('never repeats itself', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateToken()));

    expect(tokens.size).toBe(1000);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 of the token, in hex', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('gives the same hash for the same token and different hashes for different tokens', () => {
    const token = generateToken();

    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(generateToken()));
  });
});

describe('looksLikeToken', () => {
  it('accepts what generateToken makes and refuses anything else', () => {
    expect(looksLikeToken(generateToken())).toBe(true);
    expect(looksLikeToken('')).toBe(false);
    expect(looksLikeToken('a'.repeat(42))).toBe(false);
    expect(looksLikeToken('a'.repeat(44))).toBe(false);
    expect(looksLikeToken(`${'a'.repeat(42)}=`)).toBe(false);
    expect(looksLikeToken(`${'a'.repeat(42)}+`)).toBe(false);
  });
});

describe('redactTokens', () => {
  it('replaces every token in a text, e.g. the one in a link', () => {
    const first = generateToken();
    const second = generateToken();

    expect(
      redactTokens(`Open https://portal.example.com/reset-password/${first}\nor ${second}.`),
    ).toBe('Open https://portal.example.com/reset-password/[redacted]\nor [redacted].');
  });

  it('leaves shorter and longer words alone', () => {
    const text = `short ${'a'.repeat(42)} long ${'b'.repeat(44)}`;

    expect(redactTokens(text)).toBe(text);
  });
});
