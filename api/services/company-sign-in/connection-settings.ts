import type { CompanyConnection } from '../../db/schema/index.ts';
import type { ConnectionSecrets } from './connections.ts';
import type { OidcConnectionSettings } from './oidc.ts';
import { CompanySignInRefusal } from './refusal.ts';
import type { SamlConnectionSettings } from './saml-protocol.ts';

/** Where a company's OpenID Connect provider sends the browser back: a page of the portal. */
export function oidcRedirectUri(publicOrigin: string): string {
  return `${publicOrigin}/sign-in/company/callback`;
}

/**
 * The portal's own SAML addresses for a company, by its sign-up handle: its entity id (where its
 * metadata is served) and its assertion consumer service.
 */
export function samlServiceProvider(
  publicOrigin: string,
  companySlug: string,
): { entityId: string; acsUrl: string } {
  const base = `${publicOrigin}/sign-in/company/saml/${encodeURIComponent(companySlug)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs` };
}

/** What openid-client needs of a connection, its client secret opened. */
export function oidcSettings(
  connection: CompanyConnection,
  secrets: ConnectionSecrets,
): OidcConnectionSettings {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = connection;
  if (oidcIssuer === null || oidcClientId === null || oidcClientSecret === null) {
    throw new CompanySignInRefusal('connection_incomplete');
  }
  return {
    connectionId: connection.id,
    updatedAt: connection.updatedAt,
    issuer: oidcIssuer,
    clientId: oidcClientId,
    clientSecret: secrets.open(oidcClientSecret, connection.companyId),
  };
}

/** What node-saml needs of a connection, with the portal's addresses for its company. */
export function samlSettings(
  connection: CompanyConnection,
  publicOrigin: string,
  companySlug: string | null,
): SamlConnectionSettings {
  const { samlIdpEntityId, samlSsoUrl, samlIdpCertificates } = connection;
  if (samlIdpEntityId === null || samlSsoUrl === null || !samlIdpCertificates?.length) {
    throw new CompanySignInRefusal('connection_incomplete');
  }
  if (companySlug === null) throw new CompanySignInRefusal('company_without_handle');
  const sp = samlServiceProvider(publicOrigin, companySlug);
  return {
    idpEntityId: samlIdpEntityId,
    ssoUrl: samlSsoUrl,
    idpCertificates: samlIdpCertificates,
    requireSignedResponse: connection.samlRequireSignedResponse,
    spEntityId: sp.entityId,
    acsUrl: sp.acsUrl,
  };
}
