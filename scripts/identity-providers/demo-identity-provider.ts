/**
 * The demo company's identity provider, for people trying the portal on their own machine: a
 * development OpenID Connect provider (oidc-identity-provider.ts) that knows one employee. Started
 * by the server of `npm start` and `npm run dev` (src/server/api/demo-identity-provider.ts, which
 * says who the employee is), never by a production start; a new address and client secret at every
 * start, which the demo data then points the company at.
 */
import { randomBytes } from 'node:crypto';
import { startOidcIdentityProvider, type OidcAccount } from './oidc-identity-provider.ts';

export interface DemoIdentityProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  stop(): Promise<void>;
}

export async function startDemoIdentityProvider(options: {
  companyName: string;
  employee: OidcAccount;
  /** The portal's address the provider sends the browser back to. */
  redirectUri: string;
}): Promise<DemoIdentityProvider> {
  const clientId = 'member-portal-demo';
  const clientSecret = randomBytes(32).toString('base64url');
  const provider = await startOidcIdentityProvider({
    name: `${options.companyName} sign-in`,
    accounts: [options.employee],
    clients: [{ clientId, clientSecret, redirectUris: [options.redirectUri] }],
  });
  return { issuer: provider.issuer, clientId, clientSecret, stop: () => provider.stop() };
}
