import * as client from 'openid-client';
import type { AssertedIdentity } from './asserted-identity.ts';
import { CompanySignInRefusal } from './refusal.ts';

/** What an OpenID Connect connection needs to talk to its provider, its secret opened. */
export interface OidcConnectionSettings {
  readonly connectionId: number;
  /** The connection's last change: a changed connection is discovered anew. */
  readonly updatedAt: Date;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** What the callback must check, kept on the sign-in's row between the two legs. */
export interface OidcChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface OidcProviders {
  /** The provider's authorization address for a new sign-in, and what its answer must match. */
  start(
    settings: OidcConnectionSettings,
    redirectUri: string,
    loginHint: string | undefined,
  ): Promise<{ redirectUrl: string; checks: OidcChecks }>;
  /**
   * Exchanges the code of the provider's answer (`callbackQuery`, the query string the browser
   * came back with) and checks the ID token: signature, issuer, audience, expiry, nonce, state and
   * PKCE, all by openid-client. Throws {@link CompanySignInRefusal}.
   */
  finish(
    settings: OidcConnectionSettings,
    redirectUri: string,
    callbackQuery: string,
    checks: OidcChecks,
  ): Promise<AssertedIdentity>;
}

export interface OidcProvidersOptions {
  /** Replaces `fetch` towards providers: the attack tests answer as a forged provider would. */
  customFetch?: client.CustomFetch | undefined;
}

/** Plain HTTP is allowed only to a provider on this machine (docs/decisions/009). */
function isLoopback(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/**
 * The OpenID Connect side of company sign-in, on openid-client. One discovered configuration is
 * kept per connection and process: openid-client keeps the provider's keys with it (refetched
 * when a token names a key it does not know), so a sign-in costs one call to the provider, the
 * code's exchange.
 */
export function createOidcProviders(options: OidcProvidersOptions = {}): OidcProviders {
  const configurations = new Map<string, Promise<client.Configuration>>();

  function configurationFor(settings: OidcConnectionSettings): Promise<client.Configuration> {
    const key = `${String(settings.connectionId)}@${String(settings.updatedAt.getTime())}`;
    let configuration = configurations.get(key);
    if (!configuration) {
      for (const old of configurations.keys()) {
        if (old.startsWith(`${String(settings.connectionId)}@`)) configurations.delete(old);
      }
      configuration = discover(settings);
      configurations.set(key, configuration);
      // A provider that was away is asked again by the next sign-in.
      configuration.catch(() => configurations.delete(key));
    }
    return configuration;
  }

  async function discover(settings: OidcConnectionSettings): Promise<client.Configuration> {
    const issuer = new URL(settings.issuer);
    // Marked deprecated by openid-client to stand out; used only for a provider on loopback.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const execute = isLoopback(issuer) ? [client.allowInsecureRequests] : [];
    let configuration: client.Configuration;
    try {
      configuration = await client.discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        undefined,
        {
          execute,
          ...(options.customFetch ? { [client.customFetch]: options.customFetch } : {}),
        },
      );
    } catch (error) {
      throw new CompanySignInRefusal('provider_unavailable', { cause: error });
    }
    if (options.customFetch) configuration[client.customFetch] = options.customFetch;
    // Without it the ID token's signature goes unchecked, trusting TLS to the token endpoint.
    client.enableNonRepudiationChecks(configuration);
    return configuration;
  }

  return {
    async start(settings, redirectUri, loginHint) {
      const configuration = await configurationFor(settings);
      const checks: OidcChecks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { redirectUrl: url.href, checks };
    },

    async finish(settings, redirectUri, callbackQuery, checks) {
      const configuration = await configurationFor(settings);
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = callbackQuery;
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        throw new CompanySignInRefusal(refusalCode(error), { cause: error });
      }
      if (!claims) throw new CompanySignInRefusal('no_id_token');
      return identityFromClaims(claims);
    },
  };
}

function refusalCode(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) {
    return error.error === 'access_denied' ? 'cancelled' : 'provider_error';
  }
  if (error instanceof client.ResponseBodyError) return 'code_refused';
  if (error instanceof client.ClientError) return `oidc:${error.code ?? 'client_error'}`;
  return 'provider_unavailable';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function identityFromClaims(claims: client.IDToken): AssertedIdentity {
  const amr = Array.isArray(claims['amr'])
    ? claims['amr'].filter((value): value is string => typeof value === 'string')
    : [];
  const acr = text(claims['acr']);
  return {
    subject: claims.sub,
    email: text(claims['email'])?.toLowerCase(),
    emailVerified: claims['email_verified'] === true,
    givenName: text(claims['given_name']),
    familyName: text(claims['family_name']),
    twoStepValues: acr === undefined ? amr : [...amr, acr],
  };
}
