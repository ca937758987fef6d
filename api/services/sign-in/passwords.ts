import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contract/limits.ts';
import { argon2, randomBytes, timingSafeEqual, type Argon2Parameters } from 'node:crypto';
import { passwordWeakness, type Weakness } from './password-strength.ts';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (~30–40 ms per hash on this hardware). */
const ARGON2_SETTINGS = {
  memoryKib: 19_456,
  passes: 2,
  parallelism: 1,
  saltBytes: 16,
  tagBytes: 32,
} as const;

const ARGON2_VERSION = 19;
const PHC_PATTERN =
  /^\$argon2id\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Passwords are NFKC-normalised before hashing, so that the same characters typed on different
 * keyboards (composed or decomposed accents, full-width digits) give the same hash.
 */
function normalise(password: string): string {
  return password.normalize('NFKC');
}

function deriveKey(password: string, salt: Buffer, settings: Argon2Settings): Promise<Buffer> {
  const parameters: Argon2Parameters = {
    message: normalise(password),
    nonce: salt,
    memory: settings.memoryKib,
    passes: settings.passes,
    parallelism: settings.parallelism,
    tagLength: settings.tagBytes,
  };
  return new Promise((resolve, reject) => {
    argon2('argon2id', parameters, (error, derivedKey) => {
      if (error) reject(error);
      else resolve(derivedKey);
    });
  });
}

interface Argon2Settings {
  memoryKib: number;
  passes: number;
  parallelism: number;
  tagBytes: number;
}

/** PHC strings use standard base64 without padding. */
function toPhcBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/**
 * Hashes a password with argon2id and a fresh 16-byte salt.
 * @returns a PHC string: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(ARGON2_SETTINGS.saltBytes);
  const hash = await deriveKey(password, salt, ARGON2_SETTINGS);
  const { memoryKib, passes, parallelism } = ARGON2_SETTINGS;
  return `$argon2id$v=${ARGON2_VERSION}$m=${memoryKib},t=${passes},p=${parallelism}$${toPhcBase64(salt)}$${toPhcBase64(hash)}`;
}

/**
 * Checks a password against a PHC string made by {@link hashPassword}, using the parameters
 * stored in the string (so hashes made with older settings keep working). A malformed or
 * foreign hash never matches; it does not throw.
 */
export async function verifyPassword(password: string, phcHash: string): Promise<boolean> {
  const match = PHC_PATTERN.exec(phcHash);
  if (!match) return false;
  const [, version, memory, passes, parallelism, saltText, hashText] = match;
  if (Number(version) !== ARGON2_VERSION || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const settings: Argon2Settings = {
    memoryKib: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagBytes: expected.length,
  };
  try {
    const actual = await deriveKey(password, Buffer.from(saltText, 'base64'), settings);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    // Parameters that argon2 refuses (e.g. zero passes) can only come from a corrupted row.
    return false;
  }
}

/**
 * The hash of a random password nobody knows, made with the current settings. Being a constant,
 * the first unknown-email sign-in costs no more than later ones.
 */
export const DECOY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$2VmahylRfiL4ctI7UppSiQ$kyB7WxBmhFHmgdcMoP+n4IXLrUyZjqpTPsHf8mhXatM';

/**
 * Spends the same time as checking a real password, for sign-ins with an unknown email, so that
 * response times do not reveal which addresses have accounts. Always resolves to false.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(password, DECOY_PASSWORD_HASH);
  return false;
}

interface PasswordOwner {
  email: string;
  name?: string | undefined;
  lastName?: string | undefined;
}

type PasswordPolicyVerdict =
  | { acceptable: true }
  | {
      acceptable: false;
      reason: 'too_short' | 'too_long' | 'too_common' | 'personal_details' | 'too_weak';
      message: string;
    };

/** The sentence a refused password gets, by what makes it easy to guess. */
export const WEAKNESS_MESSAGES: Readonly<Record<Weakness, string>> = {
  common: 'This password is too common. Please choose a less predictable one.',
  personal:
    'This password is too close to your email address or your name. Please choose a less predictable one.',
  words: 'A common word or name with little added is easy to guess. Please add a few more words.',
  repeat: 'Repeated letters or words are easy to guess. Please choose a less predictable password.',
  sequence:
    'Runs such as abcd or 1234 are easy to guess. Please choose a less predictable password.',
  keyboard:
    'Rows of keys such as qwerty are easy to guess. Please choose a less predictable password.',
  date: 'Dates and years are easy to guess. Please choose a less predictable password.',
  guessable: 'This password is easy to guess. Please choose a less predictable one.',
};

const REASONS: Readonly<Record<Weakness, 'too_common' | 'personal_details' | 'too_weak'>> = {
  common: 'too_common',
  personal: 'personal_details',
  words: 'too_weak',
  repeat: 'too_weak',
  sequence: 'too_weak',
  keyboard: 'too_weak',
  date: 'too_weak',
  guessable: 'too_weak',
};

function comparable(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The password rules (NIST SP 800-63B-4 section 3.1.1.2, OWASP ASVS), the one check of every
 * route that sets a password: sign-up, reset, and a signed-in member's password change. A length
 * of 8 to 128 characters (code points, not UTF-16 units), no composition rules; not the member's
 * email or name, nor built from them; and not easy to guess: not a common or breached password,
 * nor one that zxcvbn estimates at fewer than 10^8 guesses (services/password-strength.ts). A
 * refusal carries a sentence for the member.
 */
export async function checkPasswordPolicy(
  password: string,
  owner: PasswordOwner,
): Promise<PasswordPolicyVerdict> {
  const normalised = normalise(password);
  // NIST SP 800-63B counts each code point as one character.
  const length = Array.from(normalised).length;
  if (length < PASSWORD_MIN_LENGTH) {
    return {
      acceptable: false,
      reason: 'too_short',
      message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return {
      acceptable: false,
      reason: 'too_long',
      message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
    };
  }
  const candidate = comparable(password);
  const name = owner.name === undefined ? '' : comparable(owner.name);
  const lastName = owner.lastName === undefined ? '' : comparable(owner.lastName);
  const email = comparable(owner.email);
  const personalDetails = [email, name, lastName, `${name} ${lastName}`.trim()];
  if (personalDetails.some((detail) => detail.length > 0 && detail === candidate)) {
    return {
      acceptable: false,
      reason: 'personal_details',
      message: 'Password must not be your email address or your name.',
    };
  }
  const weakness = await passwordWeakness(normalised, [email, name, lastName]);
  if (weakness !== undefined) {
    return { acceptable: false, reason: REASONS[weakness], message: WEAKNESS_MESSAGES[weakness] };
  }
  return { acceptable: true };
}
