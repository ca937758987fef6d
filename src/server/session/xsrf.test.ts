import { describe, expect, it } from 'vitest';
import {
  isCrossSiteCall,
  isValidXsrfSubmission,
  isWellSignedXsrfToken,
  issueXsrfToken,
} from './xsrf';

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

describe('the origin of an action call', () => {
  const site = 'https://portal.example.com';
  const call = (headers: Record<string, string>) => isCrossSiteCall(new Headers(headers), site);

  it('accepts a call from a page of the site itself', () => {
    expect(call({ 'sec-fetch-site': 'same-origin', origin: site })).toBe(false);
  });

  it('accepts a call the person made themselves, with no site behind it', () => {
    expect(call({ 'sec-fetch-site': 'none' })).toBe(false);
  });

  it('leaves a browser that sends neither header to the token', () => {
    expect(call({})).toBe(false);
  });

  it.each([
    ['another site', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling host of the same site', { 'sec-fetch-site': 'same-site' }],
    ['another origin', { origin: 'https://evil.example' }],
    ['another scheme of the same host', { origin: 'http://portal.example.com' }],
    ['an opaque origin', { origin: 'null' }],
    ['another site that claims our origin', { 'sec-fetch-site': 'cross-site', origin: site }],
  ])('refuses a call from %s', (_label, headers) => {
    expect(call(headers)).toBe(true);
  });
});
