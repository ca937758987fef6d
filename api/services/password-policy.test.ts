import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_PASSWORD } from '../db/seed.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { checkPasswordPolicy } from './passwords.ts';

const owner = { email: 'avery.jordan@example.com', name: 'Avery', lastName: 'Jordan' };

describe('checkPasswordPolicy', () => {
  it('accepts a long, uncommon password with no composition rules', () => {
    expect(checkPasswordPolicy('correct horse battery staple', owner)).toEqual({
      acceptable: true,
    });
    expect(checkPasswordPolicy('lowercaseonly', owner).acceptable).toBe(true);
  });

  it('refuses fewer than 8 characters', () => {
    expect(checkPasswordPolicy('seven77', owner)).toEqual({
      acceptable: false,
      reason: 'too_short',
      message: 'Password must be at least 8 characters.',
    });
    expect(checkPasswordPolicy('eight888', owner).acceptable).toBe(true);
  });

  it('refuses more than 128 characters', () => {
    expect(checkPasswordPolicy('a'.repeat(128), owner).acceptable).toBe(true);
    expect(checkPasswordPolicy('a'.repeat(129), owner)).toMatchObject({
      acceptable: false,
      reason: 'too_long',
    });
  });

  it('counts characters, not UTF-16 units, so emoji count once each', () => {
    expect(checkPasswordPolicy('🔑🔑🔑🔑🔑🔑🔑', owner).acceptable).toBe(false);
    expect(checkPasswordPolicy('🔑🔑🔑🔑🔑🔑🔑🔑', owner).acceptable).toBe(true);
  });

  it('refuses a common password whatever its letter case', () => {
    expect(checkPasswordPolicy('password123', owner)).toMatchObject({
      acceptable: false,
      reason: 'too_common',
    });
    expect(checkPasswordPolicy('QWERTYUIOP', owner).acceptable).toBe(false);
    expect(checkPasswordPolicy('Iloveyou1', owner).acceptable).toBe(false);
  });

  it.each([
    ['the email address', 'Maximilian.Fitzgerald@Example.com'],
    ['the name', 'maximilian'],
    ['the last name', 'FITZGERALD'],
    ['the full name', 'Maximilian Fitzgerald'],
    ['the full name with stray spaces', ' maximilian   fitzgerald '],
  ])('refuses %s', (_description, password) => {
    const maximilian = {
      email: 'maximilian.fitzgerald@example.com',
      name: 'Maximilian',
      lastName: 'Fitzgerald',
    };

    expect(checkPasswordPolicy(password, maximilian)).toEqual({
      acceptable: false,
      reason: 'personal_details',
      message: 'Password must not be your email address or your name.',
    });
  });

  it('accepts a password that merely contains the name', () => {
    expect(checkPasswordPolicy('avery loves long walks', owner).acceptable).toBe(true);
  });

  it('ships a blocklist of a few hundred common passwords of 8 characters or more', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(300);
    for (const entry of COMMON_PASSWORDS) {
      expect(entry.length).toBeGreaterThanOrEqual(8);
      expect(entry).toBe(entry.toLowerCase());
    }
  });

  it('accepts the default demo password', () => {
    expect(
      checkPasswordPolicy(DEFAULT_DEMO_PASSWORD, { email: 'member@example.com', name: 'Avery' }),
    ).toEqual({ acceptable: true });
  });
});
