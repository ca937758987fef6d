import { describe, expect, it } from 'vitest';
import { appSetupFromUri } from './mfa';

const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const uri = `otpauth://totp/Member%20Concierge:avery%40example.com?issuer=Member+Concierge&algorithm=SHA1&secret=${secret}&period=30&digits=6`;

describe('appSetupFromUri', () => {
  it('reads the secret of an authenticator app’s address back', () => {
    expect(appSetupFromUri(uri)).toEqual({ secret, uri });
  });

  it.each([
    ['not an address', 'not a uri'],
    ['another scheme', uri.replace('otpauth:', 'https:')],
    ['a counter-based code', uri.replace('//totp/', '//hotp/')],
    ['no secret', uri.replace(`&secret=${secret}`, '')],
    ['a short secret', uri.replace(secret, 'JBSWY3DP')],
    ['markup in the secret', uri.replace(secret, '<script>alert(1)</script>')],
  ])('gives nothing for %s', (_case, address) => {
    expect(appSetupFromUri(address)).toBeUndefined();
  });
});
