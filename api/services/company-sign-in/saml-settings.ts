/**
 * What the SAML checks need of a company's connection, with the portal's own addresses for it
 * (services/company-sign-in/connection-settings.ts builds it), and what they find in an assertion.
 */

export interface SamlConnectionSettings {
  /** The IdP's entity id: the assertion's and response's Issuer must equal it. */
  readonly idpEntityId: string;
  /** The IdP's SingleSignOnService URL (HTTP-Redirect binding). */
  readonly ssoUrl: string;
  /** PEM certificates (or PUBLIC KEY PEMs) of the IdP; two during a rotation. */
  readonly idpCertificates: readonly string[];
  /** When true (the default for connections) the Response must be signed as well as the Assertion. */
  readonly requireSignedResponse: boolean;
  /** Our entity id and assertion consumer service URL, built by the caller from the public origin. */
  readonly spEntityId: string;
  readonly acsUrl: string;
}

export interface SamlAssertedIdentity {
  readonly nameId: string;
  /** The NameID when its format is emailAddress, else a mail/email attribute. */
  readonly email: string | undefined;
  readonly givenName: string | undefined;
  readonly familyName: string | undefined;
  /** The signed assertion's ID, for replay refusal (the caller stores it unique). */
  readonly assertionId: string;
  readonly authnContextClassRef: string | undefined;
  /**
   * When the assertion stops being accepted anyway (its and its bearer confirmation's
   * NotOnOrAfter, its IssueInstant plus the maximum age, whichever comes first, plus the accepted
   * clock skew): how long its ID must be remembered.
   */
  readonly notOnOrAfter: Date | undefined;
}
