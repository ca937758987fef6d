/**
 * A company sign-in refused. The member is told one sentence whatever the cause
 * (`companySignInFailed`); `code` says the cause in the log, and nothing the provider sent
 * (a token, an assertion, an address) is ever in it.
 */
export class CompanySignInRefusal extends Error {
  readonly code: string;

  constructor(code: string, options?: { cause?: unknown }) {
    super(`Company sign-in refused: ${code}.`, options);
    this.name = 'CompanySignInRefusal';
    this.code = code;
  }
}
