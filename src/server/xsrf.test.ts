import { describe, expect, it } from 'vitest';
import { isValidXsrfSubmission, isWellSignedXsrfToken, issueXsrfToken } from './xsrf';

const secret = 'a-test-secret-that-is-long-enough-to-use';
const session = 'session-token-of-member-a';

describe('the signed double-submit token', () => {
  it('accepts a submission equal to its own well-signed cookie', () => {
    const token = issueXsrfToken(secret, session);
    expect(isValidXsrfSubmission(token, token, secret, session)).toBe(true);
  });

  it('refuses a submission that differs from the cookie', () => {
    const cookie = issueXsrfToken(secret, session);
    const submitted = issueXsrfToken(secret, session);
    expect(isValidXsrfSubmission(cookie, submitted, secret, session)).toBe(false);
  });

  it('refuses a cookie signed with another key, even when both copies match', () => {
    const planted = issueXsrfToken('another-secret-planted-by-an-attacker-site', session);
    expect(isValidXsrfSubmission(planted, planted, secret, session)).toBe(false);
  });

  it('refuses a token issued to an anonymous visitor once a session is signed in', () => {
    const anonymous = issueXsrfToken(secret, undefined);
    expect(isValidXsrfSubmission(anonymous, anonymous, secret, undefined)).toBe(true);
    expect(isValidXsrfSubmission(anonymous, anonymous, secret, session)).toBe(false);
  });

  it("refuses another session's token", () => {
    const others = issueXsrfToken(secret, 'session-token-of-member-b');
    expect(isValidXsrfSubmission(others, others, secret, session)).toBe(false);
  });

  it('refuses a signed-in token after sign-out', () => {
    const signedIn = issueXsrfToken(secret, session);
    expect(isWellSignedXsrfToken(signedIn, secret, undefined)).toBe(false);
  });

  it('refuses missing copies and malformed tokens', () => {
    const token = issueXsrfToken(secret, session);
    expect(isValidXsrfSubmission(undefined, token, secret, session)).toBe(false);
    expect(isValidXsrfSubmission(token, undefined, secret, session)).toBe(false);
    expect(isWellSignedXsrfToken('no-dot', secret, session)).toBe(false);
    expect(isWellSignedXsrfToken('a.b.c', secret, session)).toBe(false);
  });
});
