import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * Signing keys of the test OpenID Connect provider (oidc-identity-provider.ts), made when needed
 * so that nothing secret is stored. A test that rotates the provider's keys makes its own.
 */

/** A private RS256 key as a JWK, under a key id of its own. */
export interface OidcSigningKey extends JWK {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly use: 'sig';
}

export async function createOidcSigningKey(): Promise<OidcSigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}
