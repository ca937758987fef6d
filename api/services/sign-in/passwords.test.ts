import { argon2Sync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DECOY_PASSWORD_HASH,
  hashPassword,
  verifyAgainstDecoy,
  verifyPassword,
} from './passwords.ts';

const PHC = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/;

describe('hashPassword', () => {
  it('produces an argon2id PHC string with the agreed parameters, a 16-byte salt and a 32-byte hash', async () => {
    const hash = await hashPassword('correct horse battery staple');

    const [, salt = '', digest = ''] = PHC.exec(hash) ?? [];
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(digest, 'base64')).toHaveLength(32);
  });

  it('salts every hash differently', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');

    expect(first).not.toBe(second);
  });

  it('matches what argon2id computes directly from the stored salt', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const [, salt = '', digest = ''] = PHC.exec(hash) ?? [];

    const expected = argon2Sync('argon2id', {
      message: 'correct horse battery staple',
      nonce: Buffer.from(salt, 'base64'),
      memory: 19456,
      passes: 2,
      parallelism: 1,
      tagLength: 32,
    });

    expect(Buffer.from(digest, 'base64').equals(expected)).toBe(true);
  });
});

describe('verifyPassword', () => {
  it('accepts the password that was hashed', async () => {
    const hash = await hashPassword('correct horse battery staple');

    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
  });

  it('refuses any other password, including one differing only in case', async () => {
    const hash = await hashPassword('correct horse battery staple');

    expect(await verifyPassword('Correct horse battery staple', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('treats the same characters typed in composed and decomposed form alike', async () => {
    const hash = await hashPassword('crème brûlée 2026');

    expect(await verifyPassword('cre\u0300me bru\u0302le\u0301e 2026', hash)).toBe(true);
  });

  it('verifies hashes made with other parameters, reading them from the PHC string', async () => {
    const salt = randomBytes(16);
    const digest = argon2Sync('argon2id', {
      message: 'an older password',
      nonce: salt,
      memory: 8192,
      passes: 3,
      parallelism: 1,
      tagLength: 32,
    });
    const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
    const hash = `$argon2id$v=19$m=8192,t=3,p=1$${unpadded(salt)}$${unpadded(digest)}`;

    expect(await verifyPassword('an older password', hash)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['another algorithm', '$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'],
    ['another argon2 version', '$argon2id$v=16$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaA'],
    ['impossible parameters', '$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2g'],
  ])('never matches, nor throws on, %s', async (_description, hash) => {
    expect(await verifyPassword('anything at all', hash)).toBe(false);
  });
});

describe('verifyAgainstDecoy', () => {
  it('costs what a real check costs: its hash uses the current parameters', () => {
    expect(DECOY_PASSWORD_HASH).toMatch(PHC);
  });

  it('always answers false', async () => {
    expect(await verifyAgainstDecoy('correct horse battery staple')).toBe(false);
  });
});
