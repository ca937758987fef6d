import * as samlify from 'samlify';
import type { SamlAccount, SamlServiceProviderEndpoints } from './saml-vocabulary.ts';
import type { SamlSigningKey } from './saml-signing-keys.ts';
import {
  BASIC_ATTRIBUTE_FORMAT,
  EMAIL_ADDRESS_FORMAT,
  HTTP_POST,
  HTTP_REDIRECT,
  PASSWORD_CONTEXT,
  SAML_STATUS,
  SECURITY_KEY_CONTEXT,
  samlId,
} from './saml-vocabulary.ts';

/**
 * The test SAML identity provider's honest answers and metadata, built and signed by samlify's
 * IdentityProvider: an implementation other than the service provider's (node-saml), so that a
 * mistake shared by our code and one library does not go unseen.
 */

const FIVE_MINUTES_MS = 5 * 60_000;

export interface HonestResponses {
  response(
    sp: SamlServiceProviderEndpoints,
    requestId: string,
    account: SamlAccount,
    options: { securityKey: boolean },
  ): Promise<string>;
  metadata(): string;
}

/**
 * samlify's default template has no AuthnStatement ({AuthnStatement} is always replaced by
 * nothing) and its attributes are filled only by a `customTagReplacement`: both are added here,
 * the rest (structure, escaping, signatures and their placement) is samlify's own. Only the
 * sending half of samlify is used, which needs no schema validator (`setSchemaValidator` is for
 * parsing).
 */
export function honestResponses(
  entityId: string,
  ssoUrl: string,
  key: SamlSigningKey,
  signResponse: boolean,
): HonestResponses {
  const defaultTemplate = samlify.SamlLib.defaultLoginResponseTemplate.context;
  if (!defaultTemplate.includes('{AuthnStatement}')) {
    throw new Error("samlify's login response template has no {AuthnStatement} any more");
  }
  const template = defaultTemplate.replace(
    '{AuthnStatement}',
    '<saml:AuthnStatement AuthnInstant="{AuthnInstant}" SessionIndex="{SessionIndex}">' +
      '<saml:AuthnContext><saml:AuthnContextClassRef>{AuthnContextClassRef}' +
      '</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>',
  );
  const attribute = (name: string) => ({
    name,
    valueTag: name,
    nameFormat: BASIC_ATTRIBUTE_FORMAT,
    valueXsiType: 'xs:string',
  });
  // samlify warns on the console of metadata without a SingleLogoutService: this provider has
  // none on purpose (company sign-in never logs out at the provider).
  const warn = console.warn;
  console.warn = () => undefined;
  let idp: samlify.IdentityProviderInstance;
  try {
    idp = samlify.IdentityProvider({
      entityID: entityId,
      privateKey: key.privateKey,
      signingCert: key.certificate,
      isAssertionEncrypted: false,
      wantAuthnRequestsSigned: false,
      nameIDFormat: [EMAIL_ADDRESS_FORMAT],
      singleSignOnService: [{ Binding: HTTP_REDIRECT, Location: ssoUrl }],
      loginResponseTemplate: {
        context: template,
        attributes: [attribute('email'), attribute('givenName'), attribute('sn')],
      },
    });
  } finally {
    console.warn = warn;
  }
  const serviceProviders = new Map<string, samlify.ServiceProviderInstance>();

  return {
    async response(sp, requestId, account, { securityKey }) {
      const spKey = `${sp.entityId} ${sp.acsUrl}`;
      let entity = serviceProviders.get(spKey);
      if (!entity) {
        // wantMessageSigned: without it samlify signs the assertion only.
        entity = samlify.ServiceProvider({
          entityID: sp.entityId,
          assertionConsumerService: [{ Binding: HTTP_POST, Location: sp.acsUrl }],
          wantAssertionsSigned: true,
          wantMessageSigned: signResponse,
        });
        serviceProviders.set(spKey, entity);
      }
      const now = new Date();
      const later = new Date(now.getTime() + FIVE_MINUTES_MS).toISOString();
      const id = samlId();
      const values: Record<string, string> = {
        ID: id,
        AssertionID: samlId(),
        Destination: sp.acsUrl,
        Audience: sp.entityId,
        SubjectRecipient: sp.acsUrl,
        Issuer: entityId,
        IssueInstant: now.toISOString(),
        StatusCode: SAML_STATUS.success,
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: EMAIL_ADDRESS_FORMAT,
        NameID: account.email,
        InResponseTo: requestId,
        AuthnInstant: now.toISOString(),
        SessionIndex: samlId(),
        AuthnContextClassRef: securityKey ? SECURITY_KEY_CONTEXT : PASSWORD_CONTEXT,
        attrEmail: account.email,
        attrGivenName: account.givenName,
        attrSn: account.familyName,
      };
      const answer = await idp.createLoginResponse(
        entity,
        { extract: { request: { id: requestId } } },
        'post',
        { email: account.email },
        {
          customTagReplacement: (raw) => ({
            id,
            context: samlify.SamlLib.replaceTagsByValue(raw, values),
          }),
        },
      );
      return answer.context;
    },
    metadata() {
      return idp.getMetadata();
    },
  };
}
