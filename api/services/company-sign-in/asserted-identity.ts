/** Who a company's provider says signed in, whichever protocol said it. */
export interface AssertedIdentity {
  /** The OIDC `sub` or the SAML NameID: what the member is known by at the provider. */
  readonly subject: string;
  /** Lower-cased; undefined when the provider sent none. */
  readonly email: string | undefined;
  /** OIDC's `email_verified`; a SAML provider vouches for the addresses it asserts. */
  readonly emailVerified: boolean;
  readonly givenName: string | undefined;
  readonly familyName: string | undefined;
  /** The provider's words for how the person proved it: `amr` and `acr`, or AuthnContextClassRef. */
  readonly twoStepValues: readonly string[];
}
