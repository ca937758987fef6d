import { describe, expect, it } from 'vitest';
import { isValidXsrfSubmission, isWellSignedXsrfToken, issueXsrfToken } from './xsrf';

const secret = 'a-test-secret-that-is-long-enough-to-use';

describe('the signed double-submit token', () => {
  it('accepts a submission equal to its own well-signed cookie', () => {
    const token = issueXsrfToken(secret);
    expect(isValidXsrfSubmission(token, token, secret)).toBe(true);
  });

  it('refuses a submission that differs from the cookie', () => {
    expect(isValidXsrfSubmission(issueXsrfToken(secret), issueXsrfToken(secret), secret)).toBe(
      false,
    );
  });

  it('refuses a cookie signed with another key, even when both copies match', () => {
    const planted = issueXsrfToken('another-secret-planted-by-an-attacker-site');
    expect(isValidXsrfSubmission(planted, planted, secret)).toBe(false);
  });

  it('refuses missing copies and malformed tokens', () => {
    const token = issueXsrfToken(secret);
    expect(isValidXsrfSubmission(undefined, token, secret)).toBe(false);
    expect(isValidXsrfSubmission(token, undefined, secret)).toBe(false);
    expect(isWellSignedXsrfToken('no-dot', secret)).toBe(false);
    expect(isWellSignedXsrfToken('a.b.c', secret)).toBe(false);
  });
});
