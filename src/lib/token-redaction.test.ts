import { describe, expect, it } from 'vitest';
import { matchRoute } from '../route-matching';
import { loggableRouteParameters } from '../routes';
import { pathTokenRedactor } from './path-token-redaction';
import { loggablePath, redactPathTokens, routePatterns } from './token-redaction';
import { PARTNER_OFFER_IDS } from '../../contract/partner-offers.ts';

/**
 * A real path of `pattern`, optional parts included: each secret parameter (and wildcard) filled
 * with a value naming it, each loggable one with a value the logs may show.
 */
function samplePath(pattern: string): { path: string; secrets: string[]; kept: string[] } {
  const secrets: string[] = [];
  const kept: string[] = [];
  const path = pattern
    .replace(/\{([^{}]*)\}\?/g, '$1')
    .replace(/:(\w+)(\([^()]*\))?/g, (_, name: string, constraint: string | undefined) => {
      if (!loggableRouteParameters.has(name)) {
        const value = `${constraint ? '9' : 'Sample_'}${name}${constraint ? '' : '-0123456789'}`;
        secrets.push(value);
        return value;
      }
      const value = name === 'slug' ? PARTNER_OFFER_IDS[0] : constraint ? '4242' : `kept-${name}`;
      kept.push(value);
      return value;
    })
    .replace(/\*/g, () => {
      secrets.push('wildcard_secret');
      return 'deep/wildcard_secret';
    });
  return { path, secrets, kept };
}

describe('the redaction of tokens in addresses', () => {
  it.each(routePatterns)(
    'hides every parameter of %s that the route table does not declare loggable',
    (pattern) => {
      const { path, secrets, kept } = samplePath(pattern);
      expect(matchRoute(path).kind).not.toBe('not-found');
      const written = [
        loggablePath(path),
        loggablePath(`${path}?query=1`),
        loggablePath(`${path}/`),
        redactPathTokens(`GET https://portal.example${path}?query=1 failed`),
        redactPathTokens(JSON.stringify({ 'document-uri': `https://portal.example${path}` })),
        redactPathTokens(`POST ${path}`),
      ];
      for (const line of written) {
        for (const secret of secrets) expect(line).not.toContain(secret);
        for (const value of kept) expect(line).toContain(value);
      }
    },
  );

  it('declares no parameter loggable whose name says it holds a secret', () => {
    for (const name of loggableRouteParameters) {
      expect(name).not.toMatch(/token|secret|code|key|signature|otp|nonce|pass/i);
    }
  });

  it('declares loggable only parameters that a route has', () => {
    const named = new Set(routePatterns.flatMap((pattern) => [...pattern.matchAll(/:(\w+)/g)]));
    const names = new Set([...named].map((found) => found[1]));
    for (const name of loggableRouteParameters) expect(names).toContain(name);
  });

  it('hides the tokens of reset, unlock, email confirmation and storage addresses', () => {
    expect(loggablePath('/reset-password/abcDEF123')).toBe('/reset-password/[redacted]');
    expect(loggablePath('/reset-password/abc/unlock/4')).toBe(
      '/reset-password/[redacted]/unlock/4',
    );
    expect(loggablePath('/unlock/abcDEF123')).toBe('/unlock/[redacted]');
    expect(loggablePath('/abcDEF123/unlock')).toBe('/[redacted]/unlock');
    expect(loggablePath('/abcDEF123/unlock/4')).toBe('/[redacted]/unlock/4');
    expect(loggablePath('/confirm-email/abcDEF123')).toBe('/confirm-email/[redacted]');
    expect(loggablePath('/storage/uploads/abc.def?expires=1')).toBe('/storage/uploads/[redacted]');
  });

  it('hides a token even where the rest of the address matches no route', () => {
    expect(loggablePath('/confirm-email/abcDEF123/extra')).toBe('/confirm-email/[redacted]/extra');
    expect(loggablePath('/Confirm-Email/abcDEF123')).toBe('/Confirm-Email/[redacted]');
  });

  it('drops the query string and the fragment', () => {
    expect(loggablePath('/requests?tab=closed&page=2')).toBe('/requests');
    expect(loggablePath('/confirm-email/abc#top')).toBe('/confirm-email/[redacted]');
  });

  it('keeps every other path as it is', () => {
    expect(loggablePath('/requests/42/attachments/7')).toBe('/requests/42/attachments/7');
    expect(loggablePath('/sign-up/acme')).toBe('/sign-up/acme');
  });

  it('takes no API path for a token before /unlock', () => {
    expect(redactPathTokens('PUT /api/v1/users/unlock answered 503')).toBe(
      'PUT /api/v1/users/unlock answered 503',
    );
    expect(redactPathTokens('GET https://portal.example/abc/unlock')).toBe(
      'GET https://portal.example/[redacted]/unlock',
    );
  });

  it('takes a new route with a token in its path for a secret without being told', () => {
    const redact = pathTokenRedactor(['/verify-phone/:code'], new Set());
    expect(redact('GET /verify-phone/123456 failed')).toBe('GET /verify-phone/[redacted] failed');
  });

  it('refuses a route whose token has no fixed segment to be found by', () => {
    expect(() => pathTokenRedactor(['/:token'], new Set())).toThrow(/fixed segment/);
  });
});
