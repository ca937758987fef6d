import { MINUTE } from '../../../platform/clock.ts';
import { usableConnection, type CompanySignInServices } from './company-sign-in.ts';
import { samlSettings } from './connection-settings.ts';
import { providerTookTrustedStep } from './identities.ts';
import { CompanySignInRefusal } from './refusal.ts';
import { claimedRequestId, SamlRefusal, verifySamlResponse } from './saml-protocol.ts';
import {
  keepAssertion,
  signInOfSamlRequest,
  spendSamlAssertion,
  takeForAnswer,
} from './sign-ins.ts';

/** How long an assertion ID is kept when the assertion says nothing of its own end. */
const DEFAULT_ASSERTION_LIFETIME_MS = 5 * MINUTE;

/**
 * A SAML provider's answer, posted by the browser to the company's assertion consumer. The post
 * comes from the provider's page, so it carries none of the portal's cookies: the answer is
 * checked here (signatures, audience, recipient, destination, issuers, time, the request it
 * answers) and kept on the sign-in of that request, which the browser then finishes with its own
 * token (`finishCompanySignIn`). A response for another company's request, a second answer to a
 * request and an assertion used before are refused.
 */
export async function answerSamlSignIn(
  services: CompanySignInServices,
  input: { companySlug: string; samlResponse: string },
): Promise<void> {
  const { db, clock, publicOrigin } = services;
  const requestId = claimedRequestId(input.samlResponse);
  if (requestId === undefined) throw new CompanySignInRefusal('saml:in_response_to');
  const pending = await signInOfSamlRequest(db, requestId, clock.now());
  if (!pending) throw new CompanySignInRefusal('unknown_or_used');
  const { connection, companySlug } = await usableConnection(services, pending);
  if (connection.protocol !== 'saml' || companySlug !== input.companySlug.toLowerCase()) {
    throw new CompanySignInRefusal('saml:another_company');
  }
  let asserted;
  try {
    asserted = await verifySamlResponse(
      samlSettings(connection, publicOrigin, companySlug),
      input.samlResponse,
      requestId,
    );
  } catch (error) {
    if (error instanceof SamlRefusal) throw new CompanySignInRefusal(`saml:${error.code}`);
    throw error;
  }
  const now = clock.now();
  const expiresAt =
    asserted.notOnOrAfter ?? new Date(now.getTime() + DEFAULT_ASSERTION_LIFETIME_MS);
  if (!(await spendSamlAssertion(db, connection.id, asserted.assertionId, expiresAt, now))) {
    throw new CompanySignInRefusal('saml:assertion_replayed');
  }
  // Once only: of two answers to one request, the second finds the sign-in taken.
  const signIn = await takeForAnswer(db, { samlRequestId: requestId }, now);
  if (!signIn) throw new CompanySignInRefusal('unknown_or_used');
  const twoStepValues =
    asserted.authnContextClassRef === undefined ? [] : [asserted.authnContextClassRef];
  await keepAssertion(db, signIn.id, {
    subject: asserted.nameId,
    email: asserted.email?.toLowerCase(),
    givenName: asserted.givenName,
    familyName: asserted.familyName,
    twoStep: providerTookTrustedStep(connection, { twoStepValues }),
    linkRequired: false,
  });
}
