import type { IncomingMessage, ServerResponse } from 'node:http';
// @ts-expect-error -- oidc-provider ships no types; OidcProviderModule says what is used of it.
import * as untypedOidcProvider from 'oidc-provider';

/**
 * oidc-provider, typed as far as the test OpenID Connect provider (oidc-identity-provider.ts)
 * uses it: the package ships no types.
 */

export type Payload = Record<string, unknown>;

export interface Interaction {
  readonly uid: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly prompt: { readonly name: string };
  readonly session?: { readonly accountId?: string };
}

type InteractionResult =
  | {
      readonly login?: { readonly accountId: string; readonly amr: string[]; readonly acr: string };
      readonly consent: { readonly grantId: string };
    }
  | { readonly error: string; readonly error_description: string };

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: readonly string[]): void;
  save(): Promise<string>;
}

export interface ErrorPageContext {
  type: string;
  body: string;
  set(field: string, value: string): void;
}

interface Provider {
  callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
  interactionFinished(
    request: IncomingMessage,
    response: ServerResponse,
    result: InteractionResult,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  readonly Grant: new (properties: { accountId: string; clientId: string }) => Grant;
  readonly Client: new (metadata: Payload) => unknown;
  on(event: 'server_error', listener: (context: unknown, error: unknown) => void): void;
}

interface OidcProviderModule {
  readonly Provider: new (issuer: string, configuration: Payload) => Provider;
  readonly errors: {
    readonly SessionNotFound: abstract new (...args: never[]) => Error;
    readonly InvalidClientMetadata: abstract new (...args: never[]) => Error & {
      error_description?: string;
    };
  };
}

export const { Provider, errors } = untypedOidcProvider as unknown as OidcProviderModule;
