import { describe, expect, it } from 'vitest';
import { createFactorSecrets } from './factor-secrets.ts';

const key = 'k'.repeat(32);
const secret = new Uint8Array([
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
]);

describe('factor secrets', () => {
  it('opens what it sealed for the same member', () => {
    const secrets = createFactorSecrets(key);

    expect(secrets.open(secrets.seal(secret, 7), 7)).toEqual(secret);
  });

  it('never writes the secret itself, and seals it differently each time', () => {
    const secrets = createFactorSecrets(key);
    const first = secrets.seal(secret, 7);
    const second = secrets.seal(secret, 7);

    expect(first).not.toBe(second);
    expect(first).not.toContain(Buffer.from(secret).toString('base64url'));
  });

  it('refuses a value sealed for another member', () => {
    const secrets = createFactorSecrets(key);

    expect(() => secrets.open(secrets.seal(secret, 7), 8)).toThrow();
  });

  it('refuses a value sealed with another key, or changed by one character', () => {
    const sealed = createFactorSecrets(key).seal(secret, 7);
    const changed = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'AB' : 'AA'}`;

    expect(() => createFactorSecrets('j'.repeat(32)).open(sealed, 7)).toThrow();
    expect(() => createFactorSecrets(key).open(changed, 7)).toThrow();
    expect(() => createFactorSecrets(key).open('not sealed', 7)).toThrow();
  });

  it('refuses a key shorter than 32 characters', () => {
    expect(() => createFactorSecrets('short')).toThrow(/at least 32 characters/);
  });
});
