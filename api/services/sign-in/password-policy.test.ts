import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_PASSWORD, DEMO_USERS } from '../../demo/demo-accounts.ts';
import { STRENGTH_CHECK_MAX_LENGTH } from './password-strength.ts';
import { checkPasswordPolicy, WEAKNESS_MESSAGES } from './passwords.ts';

const owner = { email: 'avery.jordan@example.com', name: 'Avery', lastName: 'Jordan' };

/** 128 characters with no pattern zxcvbn knows (random base64). */
const RANDOM_128 =
  '/vUgb160J98eFSfz5b/QzxGv0rzg9N2T0gs3gXBDFJfxJ6Jylvh9Spz8EXbRdK5MIMJxD6qEugnPVXFBQ0NI40nzZmeVBNwaj6zlvQZZq9lLNO+sskep0bsPDAQidoWw';

describe('checkPasswordPolicy', () => {
  it('accepts a long, uncommon password with no composition rules', async () => {
    expect(await checkPasswordPolicy('correct horse battery staple', owner)).toEqual({
      acceptable: true,
    });
    expect((await checkPasswordPolicy('lowercase only please', owner)).acceptable).toBe(true);
  });

  it('refuses fewer than 8 characters, and accepts 8 in which nothing is guessable', async () => {
    expect(await checkPasswordPolicy('seven77', owner)).toEqual({
      acceptable: false,
      reason: 'too_short',
      message: 'Password must be at least 8 characters.',
    });
    expect(await checkPasswordPolicy('qz7!vk2m', owner)).toEqual({ acceptable: true });
  });

  it('refuses more than 128 characters', async () => {
    expect(RANDOM_128).toHaveLength(128);
    expect(await checkPasswordPolicy(RANDOM_128, owner)).toEqual({ acceptable: true });
    expect(await checkPasswordPolicy(`${RANDOM_128}x`, owner)).toMatchObject({
      acceptable: false,
      reason: 'too_long',
    });
  });

  it('counts characters, not UTF-16 units, so emoji count once each', async () => {
    expect(await checkPasswordPolicy('🔑🦊🌵🎻🚲🧭🍋', owner)).toMatchObject({
      reason: 'too_short',
    });
    expect(await checkPasswordPolicy('🔑🦊🌵🎻🚲🧭🍋🪁', owner)).toEqual({ acceptable: true });
  });

  it.each([
    'password123',
    'QWERTYUIOP',
    'Iloveyou1',
    'P@ssw0rd!',
    'Password2026',
    'ｐａｓｓｗｏｒｄ１２３',
  ])('refuses %s as common (breached lists, letter case, l33t, a year added)', async (password) => {
    expect(await checkPasswordPolicy(password, owner)).toEqual({
      acceptable: false,
      reason: 'too_common',
      message: 'This password is too common. Please choose a less predictable one.',
    });
  });

  it.each([
    ['a word with little added', 'dishwasher1', WEAKNESS_MESSAGES.words],
    ['a season and a year', 'Summer2024!', WEAKNESS_MESSAGES.words],
    ['repeated characters', 'aaaaaaaaaaaa', WEAKNESS_MESSAGES.repeat],
    ['a repeated pattern', 'abcabcabcabc', WEAKNESS_MESSAGES.repeat],
    ['a run of letters', 'abcdefghijk', WEAKNESS_MESSAGES.sequence],
    ['a run of digits', '98765432109', WEAKNESS_MESSAGES.sequence],
    ['a row of keys', 'zxcvbnm,./;', WEAKNESS_MESSAGES.keyboard],
    ['a date', '01/02/1990', WEAKNESS_MESSAGES.date],
  ])('refuses %s as easy to guess, saying why', async (_description, password, message) => {
    expect(await checkPasswordPolicy(password, owner)).toEqual({
      acceptable: false,
      reason: 'too_weak',
      message,
    });
  });

  it.each([
    ['the email address', 'Maximilian.Fitzgerald@Example.com'],
    ['the name', 'maximilian'],
    ['the last name', 'FITZGERALD'],
    ['the full name', 'Maximilian Fitzgerald'],
    ['the full name with stray spaces', ' maximilian   fitzgerald '],
  ])('refuses %s', async (_description, password) => {
    const maximilian = {
      email: 'maximilian.fitzgerald@example.com',
      name: 'Maximilian',
      lastName: 'Fitzgerald',
    };

    expect(await checkPasswordPolicy(password, maximilian)).toEqual({
      acceptable: false,
      reason: 'personal_details',
      message: 'Password must not be your email address or your name.',
    });
  });

  it.each([
    'averyjordan',
    'avery.jordan',
    'averyjordan@example.com',
    'Jordan2026!',
    'jordan-avery-1',
    'Avery_Jordan_2026',
  ])('refuses %s, built from the email or the name', async (password) => {
    expect(await checkPasswordPolicy(password, owner)).toEqual({
      acceptable: false,
      reason: 'personal_details',
      message: WEAKNESS_MESSAGES.personal,
    });
  });

  it('accepts a password that contains the name among words of its own', async () => {
    expect((await checkPasswordPolicy('avery loves long walks', owner)).acceptable).toBe(true);
  });

  it('looks at the first 64 characters for how guessable a password is', async () => {
    expect(STRENGTH_CHECK_MAX_LENGTH).toBe(64);
    const strongStart = RANDOM_128.slice(0, 64);
    expect(await checkPasswordPolicy(`${strongStart}${'a'.repeat(64)}`, owner)).toEqual({
      acceptable: true,
    });
    expect(await checkPasswordPolicy(`${'a'.repeat(64)}${strongStart}`, owner)).toMatchObject({
      acceptable: false,
      reason: 'too_weak',
    });
  });
});

/**
 * Every password the seed, the tests and the benchmarks set, with where it is used: a stricter
 * dictionary or scoring in a library update that refuses one fails here, by its name.
 */
describe('the passwords the project itself uses', () => {
  it.each(DEMO_USERS.map((user) => [user.email, user] as const))(
    'accepts the demo password for %s (api/demo/seed.ts)',
    async (_email, user) => {
      expect(await checkPasswordPolicy(DEFAULT_DEMO_PASSWORD, user)).toEqual({ acceptable: true });
    },
  );

  const robin = { email: 'robin-1a2b3c4d@example.com', name: 'Robin', lastName: 'Quinn' };
  it.each([
    ['correct horse battery staple', 'tests/api/support.ts (TEST_PASSWORD)', owner],
    [
      'correct horse battery staple',
      'tests/api/sign-up.test.ts',
      { ...owner, name: 'Robin', lastName: 'Fairweather' },
    ],
    ['a long enough passphrase', 'tests/e2e/support/accounts.ts', robin],
    ['a long enough passphrase', 'tests/e2e (Pat)', { ...robin, name: 'Pat' }],
    ['a long enough passphrase', 'tests/e2e (Jordan)', { ...robin, name: 'Jordan' }],
    ['a brand new passphrase', 'tests/api/password-reset.test.ts and attacks', owner],
    ['yet another passphrase', 'tests/api/attacks-account-tokens.test.ts', owner],
    ['a brand new passphrase for codes', 'tests/api/attacks-one-time-codes.test.ts', owner],
    ['a brand new passphrase for emails', 'tests/api/attacks-security-emails.test.ts', owner],
    ['second of two passphrases', 'tests/api/password-reset.test.ts', owner],
    ['first member password', 'tests/api/sign-in.test.ts', owner],
    ['second member password', 'tests/api/sign-in.test.ts', owner],
    ['a different demo password', 'tests/api/reference-api.test.ts', DEMO_USERS[0] ?? owner],
    ['another new passphrase', 'tests/e2e/password-reset.spec.ts', robin],
    ['one passphrase here', 'tests/e2e/password-reset.spec.ts', robin],
    ['a passphrase without scripts', 'tests/e2e/password-reset.spec.ts', robin],
    [
      'chosen by the attacker 0b8f2c1e-5d4a-4f3b-9e7c-2a6d1f0e9b8c',
      'tests/e2e/csrf.spec.ts (with a random UUID)',
      DEMO_USERS[4] ?? owner,
    ],
    ['load-test passphrase 2026', 'bench/load.mjs', owner],
  ])('accepts %s (%s)', async (password, _where, user) => {
    expect(await checkPasswordPolicy(password, user)).toEqual({ acceptable: true });
  });
});
