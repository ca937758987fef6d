import { z } from 'zod';
import { ApiError, type ApiClient } from './client';
import { signedIn, signInAnswerSchema, type SignedIn } from './sign-in';

/** A sign-in sent to the company's provider: the browser keeps the token, then goes there. */
export interface StartedCompanySignIn {
  readonly token: string;
  readonly expiresAt: Date;
}

const startAnswerSchema = z.object({
  company_sign_in: z
    .object({
      token: z.string().min(1).max(128),
      expires_at: z.iso.datetime({ offset: true }),
    })
    .nullable(),
});

/**
 * Starts a sign-in with the company that claims the address's domain, or whose sign-up handle is
 * given; undefined when no company signs that address in, or when the API has no company sign-in
 * at all (404: an API that speaks only docs/PRODUCT.md §7, behind API_ORIGIN).
 */
export async function startCompanySignIn(
  api: ApiClient,
  by: { email: string } | { companySlug: string },
): Promise<StartedCompanySignIn | undefined> {
  let data: z.infer<typeof startAnswerSchema>;
  try {
    ({ data } = await api.request('POST', '/api/v1/company_sign_in/start', {
      body: 'email' in by ? { email: by.email } : { company_slug: by.companySlug },
      schema: startAnswerSchema,
    }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  const started = data.company_sign_in;
  return started ? { token: started.token, expiresAt: new Date(started.expires_at) } : undefined;
}

const currentAnswerSchema = z.union([
  z.object({
    state: z.literal('waiting'),
    redirect_url: z.url({ protocol: /^https?$/ }),
    company: z.object({ name: z.string() }),
  }),
  z.object({
    state: z.literal('awaiting_link'),
    email: z.string(),
    company: z.object({ name: z.string() }),
    // An API that links by the password alone does not name any.
    link_methods: z.array(z.enum(['app', 'recovery_code'])).default([]),
  }),
]);

/** A proof besides the password that links an account to its company's sign-in. */
export type LinkMethod = 'app' | 'recovery_code';

/** Where this browser's company sign-in stands: on its way to the provider, or waiting to link. */
export type CurrentCompanySignIn =
  | { readonly state: 'waiting'; readonly redirectUrl: string; readonly companyName: string }
  | {
      readonly state: 'awaiting_link';
      readonly email: string;
      readonly companyName: string;
      /** What the account has to prove it besides its password. */
      readonly linkMethods: readonly LinkMethod[];
    };

/** The sign-in of this token, or undefined when it expired or is done (404). */
export async function currentCompanySignIn(
  api: ApiClient,
  token: string,
): Promise<CurrentCompanySignIn | undefined> {
  let data: z.infer<typeof currentAnswerSchema>;
  try {
    ({ data } = await api.request('POST', '/api/v1/company_sign_in/current', {
      body: { token },
      schema: currentAnswerSchema,
    }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  return data.state === 'waiting'
    ? { state: 'waiting', redirectUrl: data.redirect_url, companyName: data.company.name }
    : {
        state: 'awaiting_link',
        email: data.email,
        companyName: data.company.name,
        linkMethods: data.link_methods,
      };
}

const callbackAnswerSchema = z.union([
  signInAnswerSchema.extend({ created: z.boolean() }),
  z.object({
    link_required: z.object({ email: z.string(), company: z.object({ name: z.string() }) }),
  }),
]);

/** How the provider's answer ended: signed in (perhaps as a new member), or a link to prove. */
export type CompanySignInOutcome =
  | { readonly kind: 'signed_in'; readonly answer: SignedIn; readonly created: boolean }
  | { readonly kind: 'link_required' };

/**
 * Finishes the browser's company sign-in as it comes back to the portal: with the OpenID Connect
 * provider's answer (the callback's query string), or after a SAML answer the assertion consumer
 * handed on.
 */
export async function finishCompanySignIn(
  api: ApiClient,
  token: string,
  callbackQuery: string,
): Promise<CompanySignInOutcome> {
  const { data, headers } = await api.request('POST', '/api/v1/company_sign_in/callback', {
    body: { token, callback_query: callbackQuery },
    schema: callbackAnswerSchema,
  });
  if ('link_required' in data) return { kind: 'link_required' };
  return { kind: 'signed_in', answer: signedIn(data, headers), created: data.created };
}

/** Links the account to the company's sign-in with its password, and signs in. */
export async function linkCompanySignIn(
  api: ApiClient,
  token: string,
  currentPassword: string,
): Promise<SignedIn> {
  const { data, headers } = await api.request('POST', '/api/v1/company_sign_in/link', {
    body: { token, user: { current_password: currentPassword } },
    schema: signInAnswerSchema,
  });
  return signedIn(data, headers);
}

const codeLinkAnswerSchema = signInAnswerSchema.extend({
  recovery_codes_left: z.number().int().nonnegative().optional(),
});

/** A sign-in that linked the account by a code, and the recovery codes left after one. */
export interface LinkedByCode {
  readonly answer: SignedIn;
  readonly recoveryCodesLeft: number | undefined;
}

/**
 * Links the account to the company's sign-in with a code of its authenticator app or one of its
 * recovery codes, and signs in past the step.
 */
export async function linkCompanySignInByCode(
  api: ApiClient,
  token: string,
  method: LinkMethod,
  code: string,
): Promise<LinkedByCode> {
  const { data, headers } = await api.request('POST', '/api/v1/company_sign_in/link', {
    body: { token, method, otp: code },
    schema: codeLinkAnswerSchema,
  });
  return { answer: signedIn(data, headers), recoveryCodesLeft: data.recovery_codes_left };
}

/** Hands a SAML provider's answer, posted to the company's assertion consumer, to the API. */
export async function answerSamlSignIn(
  api: ApiClient,
  companySlug: string,
  samlResponse: string,
): Promise<void> {
  await api.request('POST', '/api/v1/company_sign_in/saml/acs', {
    body: { company_slug: companySlug, saml_response: samlResponse },
  });
}

/** The portal's SAML metadata for the company, which its provider's administrator imports. */
export async function samlMetadata(api: ApiClient, companySlug: string): Promise<string> {
  const { data } = await api.request(
    'GET',
    `/api/v1/company_sign_in/saml/${encodeURIComponent(companySlug)}/metadata`,
    { schema: z.object({ metadata: z.string() }) },
  );
  return data.metadata;
}
