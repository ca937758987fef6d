/**
 * A SAML response refused. `code` is a short stable word for logs and tests: `malformed`,
 * `signature`, `in_response_to`, `expired`, `not_yet_valid`, `audience`, `recipient`,
 * `destination`, `issuer`, `status` (the IdP said no), `unsupported` (an encrypted assertion),
 * `invalid` (anything else node-saml refused). The message never holds the XML, the NameID or
 * any other value the response carried.
 */
export class SamlRefusal extends Error {
  readonly code: string;

  constructor(code: string, reason: string) {
    super(`SAML response refused (${code}): ${reason}`);
    this.name = 'SamlRefusal';
    this.code = code;
  }
}
