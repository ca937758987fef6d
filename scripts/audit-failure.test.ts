import { describe, expect, it } from 'vitest';
import { auditFailure } from './audit-failure.mjs';

// What npm 11 printed against a loopback stand-in for the registry.
const endpoint = 'http://127.0.0.1:47123/-/npm/v1/security/advisories/bulk';
const failedRun =
  'npm error audit endpoint returned an error\nnpm error A complete log of this run…';

describe('auditFailure', () => {
  it('quotes the status when the registry answered the audit request with an error', () => {
    const output = `npm warn audit 405 Method Not Allowed - POST ${endpoint} - nope\n{ error: 'nope' }\n${failedRun}`;

    expect(auditFailure(output)).toBe(
      'The registry answered 405 Method Not Allowed to the audit request: no advisories were checked.',
    );
  });

  it('reads the status line older npm versions wrote too', () => {
    const output = `npm ERR! code E404\nnpm ERR! 404 Not Found - POST ${endpoint}\n`;

    expect(auditFailure(output)).toMatch(/^The registry answered 404 Not Found to the audit/);
  });

  it('says the registry could not be reached only when it never answered, with the reason', () => {
    const output = `npm warn audit request to ${endpoint} failed, reason: connect ECONNREFUSED 127.0.0.1:47124\n${failedRun}`;

    expect(auditFailure(output)).toBe(
      'npm audit could not reach the package registry (connect ECONNREFUSED 127.0.0.1:47124): ' +
        'no advisories were checked. Run it again with network access to the registry (or the ' +
        'mirror npm is configured for).',
    );
    expect(auditFailure('npm error code ENOTFOUND\nnpm error getaddrinfo ENOTFOUND')).toMatch(
      /^npm audit could not reach the package registry \(ENOTFOUND\)/,
    );
  });

  it('says no usable answer came when npm gives neither a status nor a network error', () => {
    expect(auditFailure(failedRun)).toBe(
      'The registry gave no usable answer to the audit request: no advisories were checked.',
    );
  });

  it('leaves a report of vulnerabilities found to npm audit itself', () => {
    const report =
      '# npm audit report\n\nexample  <1.2.3\nSeverity: high\nfix available via `npm audit fix`\n\n1 high severity vulnerability\n';

    expect(auditFailure(report)).toBeUndefined();
  });
});
