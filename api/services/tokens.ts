import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

/** 256 bits of randomness as base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new secret token (session, reset, unlock) to hand to the client once. */
export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * What the database stores instead of the token: a leaked table then yields no usable token. A
 * fast hash is enough because the token has 256 bits of entropy, unlike a password.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a string could be a token we issued, checked before any database look-up. */
export function looksLikeToken(candidate: string): boolean {
  return TOKEN_PATTERN.test(candidate);
}

const TOKENS_IN_TEXT = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/**
 * `text` with every token-shaped word replaced by `[redacted]`: for copies of messages (e.g. an
 * email already delivered) that must not keep a usable link.
 */
export function redactTokens(text: string): string {
  return text.replace(TOKENS_IN_TEXT, '[redacted]');
}
