import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import {
  type PostBindingForm,
  readPostBindingPage,
} from '../../../scripts/identity-providers/saml-bindings.ts';
import type { CraftedResponseOptions } from '../../../scripts/identity-providers/saml-crafted-responses.ts';
import type {
  SamlAccount,
  SamlIdentityProvider,
} from '../../../scripts/identity-providers/saml-identity-provider.ts';
import { type SamlConnectionSettings, SamlRefusal, samlSignInRequest } from './saml-protocol.ts';

/**
 * What the tests of saml-protocol.ts share (saml-protocol.test.ts, saml-protocol-refusals.test.ts):
 * our service provider, the person who signs in, the connection settings for a test identity
 * provider, crafted responses, and a sign-in through the provider's pages.
 */

export const sp = {
  entityId: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/metadata',
  acsUrl: 'http://127.0.0.1:4321/api/v1/sso/saml/acme/acs',
};
export const ada: SamlAccount = {
  email: 'ada@acme.test',
  password: 'analytical engine 1843',
  givenName: 'Ada',
  familyName: 'Lovelace',
};
export const MINUTE_MS = 60_000;

export function settingsFor(
  provider: SamlIdentityProvider,
  overrides: Partial<SamlConnectionSettings> = {},
): SamlConnectionSettings {
  return {
    idpEntityId: provider.entityId,
    ssoUrl: provider.ssoUrl,
    idpCertificates: [provider.certificate],
    requireSignedResponse: true,
    spEntityId: sp.entityId,
    acsUrl: sp.acsUrl,
    ...overrides,
  };
}

export function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** A response of `provider`'s to a new request: honest unless `options` say otherwise. */
export function craftedBy(
  provider: SamlIdentityProvider,
  options: Partial<CraftedResponseOptions> = {},
) {
  const requestId = newRequestId();
  return {
    requestId,
    response: provider.craftResponse(sp, { inResponseTo: requestId, ...options }),
  };
}

export async function refusalCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SamlRefusal);
  return (error as SamlRefusal).code;
}

/** A sign-in through the identity provider's pages, as a browser without JavaScript does it. */
export async function signInAt(
  provider: SamlIdentityProvider,
  options: { securityKey?: boolean; cancel?: boolean } = {},
): Promise<{ requestId: string; form: PostBindingForm }> {
  const { redirectUrl, requestId } = await samlSignInRequest(settingsFor(provider), 'relay-42');
  const loginPage = await (await fetch(redirectUrl)).text();
  const pending = /name="pending" value="([^"]+)"/.exec(loginPage)?.[1] ?? '';
  const fields = new URLSearchParams({
    pending,
    email: ada.email,
    password: ada.password,
    action: options.cancel ? 'cancel' : 'sign-in',
  });
  if (options.securityKey) fields.set('securityKey', 'yes');
  const answer = await fetch(new URL('/sso/login', provider.ssoUrl), {
    method: 'POST',
    body: fields,
  });
  expect(answer.status).toBe(200);
  return { requestId, form: readPostBindingPage(await answer.text()) };
}
