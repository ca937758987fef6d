import { describe, expect, it } from 'vitest';
import { maxViolationsPerPost, parseCspReports } from './csp-reports';

const reportingApiBatch = (count = 1) =>
  JSON.stringify(
    Array.from({ length: count }, () => ({
      type: 'csp-violation',
      age: 3,
      url: 'https://portal.example.com/reset-password/secret-reset-token?x=1',
      user_agent: 'Chromium',
      body: {
        documentURL: 'https://portal.example.com/reset-password/secret-reset-token?x=1',
        blockedURL: 'https://evil.example/steal.js?session=abc',
        effectiveDirective: 'script-src-elem',
        disposition: 'enforce',
        sourceFile: 'https://portal.example.com/_astro/page.js',
        sample: 'what a member typed',
        lineNumber: 12,
        columnNumber: 4,
      },
    })),
  );

describe('reading CSP violation reports', () => {
  it('reads a Reporting API batch without queries, tokens or samples', () => {
    expect(parseCspReports('application/reports+json', reportingApiBatch())).toEqual([
      {
        documentPath: '/reset-password/[redacted]',
        blocked: 'https://evil.example/steal.js',
        directive: 'script-src-elem',
        disposition: 'enforce',
        sourceFile: 'https://portal.example.com/_astro/page.js',
        line: 12,
        column: 4,
      },
    ]);
  });

  it('reads a report in the older application/csp-report form', () => {
    const body = JSON.stringify({
      'csp-report': {
        'document-uri': 'https://portal.example.com/dashboard?tab=open',
        'violated-directive': "style-src-elem 'self'",
        'effective-directive': 'style-src-elem',
        'blocked-uri': 'inline',
        disposition: 'enforce',
        'line-number': 3,
      },
    });
    expect(parseCspReports('application/csp-report; charset=utf-8', body)).toEqual([
      {
        documentPath: '/dashboard',
        blocked: 'inline',
        directive: 'style-src-elem',
        disposition: 'enforce',
        sourceFile: undefined,
        line: 3,
        column: undefined,
      },
    ]);
  });

  it('keeps no token of an email confirmation link, in either form and in any field', () => {
    const link = 'https://portal.example.com/confirm-email/confirm-secret';
    const reportingApi = JSON.stringify([
      {
        type: 'csp-violation',
        url: `${link}?x=1`,
        body: {
          documentURL: `${link}?x=1`,
          referrer: link,
          blockedURL: link,
          sourceFile: link,
          effectiveDirective: 'script-src-elem',
        },
      },
    ]);
    const older = JSON.stringify({
      'csp-report': {
        'document-uri': link,
        referrer: link,
        'blocked-uri': `${link}?x=1`,
        'source-file': link,
        'effective-directive': 'img-src',
      },
    });
    const violations = [
      ...(parseCspReports('application/reports+json', reportingApi) ?? []),
      ...(parseCspReports('application/csp-report', older) ?? []),
    ];
    expect(violations).toHaveLength(2);
    for (const violation of violations) {
      expect(JSON.stringify(violation)).not.toContain('confirm-secret');
      expect(violation).toMatchObject({
        documentPath: '/confirm-email/[redacted]',
        blocked: 'https://portal.example.com/confirm-email/[redacted]',
        sourceFile: 'https://portal.example.com/confirm-email/[redacted]',
      });
    }
  });

  it('skips reports of other kinds in a Reporting API batch', () => {
    const body = JSON.stringify([{ type: 'deprecation', body: { id: 'x' } }]);
    expect(parseCspReports('application/reports+json', body)).toEqual([]);
  });

  it(`keeps at most ${maxViolationsPerPost} violations of one post`, () => {
    const body = reportingApiBatch(maxViolationsPerPost + 5);
    expect(parseCspReports('application/reports+json', body)).toHaveLength(maxViolationsPerPost);
  });

  it('names only the scheme of a blocked address that is not on the web', () => {
    const body = JSON.stringify({
      'csp-report': { 'blocked-uri': 'data:text/html,<script>alert(1)</script>' },
    });
    expect(parseCspReports('application/csp-report', body)?.[0]?.blocked).toBe('data');
  });

  it.each([
    ['a body that is not JSON', 'application/reports+json', 'not json'],
    ['a batch that is not a list', 'application/reports+json', '{"type":"csp-violation"}'],
    ['an old report without its csp-report', 'application/csp-report', '{"other":1}'],
    ['another media type', 'application/json', reportingApiBatch()],
  ])('refuses %s', (_label, contentType, body) => {
    expect(parseCspReports(contentType, body)).toBeUndefined();
  });
});
