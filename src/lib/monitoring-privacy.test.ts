import { describe, expect, it } from 'vitest';
import { privacyScrubbers } from './monitoring-privacy';
import { redactorFromRules } from './path-token-redaction';
import { redactPathTokens, routePathTokenRules } from './token-redaction';

const { scrubEvent, scrubText, scrubValue } = privacyScrubbers(redactPathTokens);

describe('scrubText', () => {
  it('redacts the tokens of reset, unlock and storage addresses', () => {
    expect(scrubText('https://portal.example/reset-password/abcDEF_123')).toBe(
      'https://portal.example/reset-password/[redacted]',
    );
    expect(scrubText('GET /unlock/abcDEF_123 failed')).toBe('GET /unlock/[redacted] failed');
    expect(scrubText('/storage/uploads/tok.sig')).toBe('/storage/uploads/[redacted]');
  });

  const confirmationToken = 'Confirm_Token-0123456789abcdefghijklmnopqrstuv';

  it.each([
    ['a GET of the confirmation link', `GET /confirm-email/${confirmationToken}`],
    ['a POST of its form', `POST /confirm-email/${confirmationToken} failed`],
    ['the link with a query', `https://portal.example/confirm-email/${confirmationToken}?x=1`],
    ['the link with a fragment', `https://portal.example/confirm-email/${confirmationToken}#top`],
    [
      'a CSP report body',
      JSON.stringify({
        'csp-report': {
          'document-uri': `https://portal.example/confirm-email/${confirmationToken}?x=1`,
          referrer: `https://portal.example/confirm-email/${confirmationToken}`,
          'blocked-uri': `https://portal.example/confirm-email/${confirmationToken}`,
        },
      }),
    ],
    [
      'an error message',
      `Error: POST /confirm-email/${confirmationToken} answered 503 (at /confirm-email/${confirmationToken})`,
    ],
  ])('redacts the token of the email confirmation link in %s', (_, text) => {
    const scrubbed = scrubText(text);
    expect(scrubbed).not.toContain(confirmationToken);
    expect(scrubbed).toContain('/confirm-email/[redacted]');
  });

  it('redacts the values of query strings and keeps their names', () => {
    expect(scrubText('/requests?tab=closed&page=2')).toBe(
      '/requests?tab=[redacted]&page=[redacted]',
    );
  });

  it('keeps ordinary words and paths', () => {
    expect(scrubText('Cannot read properties of undefined at /requests/42')).toBe(
      'Cannot read properties of undefined at /requests/42',
    );
  });
});

describe('scrubValue', () => {
  it('replaces fields whose names say they hold secrets, however deep', () => {
    expect(
      scrubValue({
        body: { user: { email: 'a@example.com', password: 'hunter2' } },
        list: [{ code: '123456' }, { mfa_token: 'x' }, { XSRF: 'y' }],
        note: 'keep me',
      }),
    ).toEqual({
      body: { user: { email: 'a@example.com', password: '[redacted]' } },
      list: [{ code: '[redacted]' }, { mfa_token: '[redacted]' }, { XSRF: '[redacted]' }],
      note: 'keep me',
    });
  });
});

describe('scrubEvent', () => {
  it('keeps of a request only its scrubbed address and harmless headers', () => {
    const event = scrubEvent({
      message: 'boom',
      request: {
        url: 'https://portal.example/reset-password/secret-token?x=1',
        headers: { 'User-Agent': 'Chromium', Cookie: 'session=abc', authorization: 'Bearer t' },
        cookies: { session: 'abc' },
        data: { user: { password: 'hunter2' } },
        query_string: 'x=1',
      },
    });
    expect(event).toEqual({
      message: 'boom',
      request: {
        url: 'https://portal.example/reset-password/[redacted]?x=[redacted]',
        headers: { 'User-Agent': 'Chromium' },
      },
    });
  });

  it('keeps of a confirmation link in the request and breadcrumbs only its path', () => {
    const event = scrubEvent({
      request: { url: 'https://portal.example/confirm-email/confirm-secret?next=1' },
      breadcrumbs: [
        { category: 'navigation', data: { from: '/sign-in', to: '/confirm-email/confirm-secret' } },
        { category: 'fetch', data: { method: 'POST', url: '/confirm-email/confirm-secret' } },
      ],
    });
    expect(JSON.stringify(event)).not.toContain('confirm-secret');
    expect(event.request).toEqual({
      url: 'https://portal.example/confirm-email/[redacted]?next=[redacted]',
      headers: {},
    });
  });

  it('keeps the member by id only', () => {
    expect(
      scrubEvent({ user: { id: 'a1b2', email: 'a@example.com', ip_address: '203.0.113.1' } }),
    ).toEqual({ user: { id: 'a1b2' } });
  });

  it('scrubs breadcrumbs and extra data like everything else', () => {
    const event = scrubEvent({
      breadcrumbs: [{ category: 'navigation', data: { from: '/sign-in', to: '/unlock/tok' } }],
      extra: { password: 'hunter2' },
    });
    expect(event).toEqual({
      breadcrumbs: [
        { category: 'navigation', data: { from: '/sign-in', to: '/unlock/[redacted]' } },
      ],
      extra: { password: '[redacted]' },
    });
  });
});

describe("the scrubbers of a page, given the route table's rules as JSON", () => {
  const inThePage = privacyScrubbers(
    redactorFromRules(
      JSON.parse(JSON.stringify(routePathTokenRules)) as typeof routePathTokenRules,
    ),
  );

  it('redact the tokens of addresses as the server does', () => {
    for (const text of [
      'https://portal.example/reset-password/abcDEF_123',
      'GET /unlock/abcDEF_123 failed',
      '/storage/uploads/tok.sig',
      '/confirm-email/abc?next=/requests',
      'Cannot read properties of undefined at /requests/42',
    ]) {
      expect(inThePage.scrubText(text)).toBe(scrubText(text));
    }
    expect(inThePage.scrubText('GET /unlock/abcDEF_123 failed')).toBe(
      'GET /unlock/[redacted] failed',
    );
  });
});
