import { z } from 'zod';
import { ApiError, type ApiClient } from './client';

const joinableCompanySchema = z.object({
  company: z.object({ slug: z.string(), name: z.string().min(1).max(200) }),
  /** Its own sign-in, when it has one; `required` when it refuses passwords. */
  company_sign_in: z.object({ required: z.boolean() }).nullish(),
});

/** A company members may join by the sign-up link with its slug. */
export interface JoinableCompany {
  readonly slug: string;
  readonly name: string;
  /** How its own sign-in stands: none, offered beside a password, or the only way in. */
  readonly companySignIn: 'none' | 'offered' | 'required';
}

/**
 * What the API says of a sign-up link: its company, that it knows no such link, or nothing yet
 * (its look-ups from this address are used up, 429): the sign-up itself still checks the slug,
 * so an office whose members all follow one link never finds the page broken.
 */
type CompanyLink =
  | { readonly status: 'known'; readonly company: JoinableCompany }
  | { readonly status: 'unknown' }
  | { readonly status: 'unchecked' };

/** The company a sign-up link names; any other failure is thrown. */
export async function fetchCompanyLink(api: ApiClient, slug: string): Promise<CompanyLink> {
  try {
    const { data } = await api.request('GET', `/api/v1/companies/${encodeURIComponent(slug)}`, {
      schema: joinableCompanySchema,
    });
    const signIn = data.company_sign_in;
    return {
      status: 'known',
      company: {
        ...data.company,
        companySignIn: signIn ? (signIn.required ? 'required' : 'offered') : 'none',
      },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { status: 'unknown' };
    if (error instanceof ApiError && error.status === 429) return { status: 'unchecked' };
    throw error;
  }
}

/** The sign-up answer's `data` is a JSON string holding `{email}`. */
const signUpAnswerSchema = z.object({
  data: z.string().transform((text, context) => {
    try {
      return z.object({ email: z.string() }).parse(JSON.parse(text));
    } catch {
      context.addIssue({ code: 'custom', message: 'data must be a JSON string holding {email}' });
      return z.NEVER;
    }
  }),
});

interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly lastName: string;
  readonly companySlug: string | undefined;
}

/** Creates the account; answers the email it was registered under. */
export async function signUp(api: ApiClient, account: NewAccount): Promise<string> {
  const { data } = await api.request('POST', '/api/v1/users/sign_up', {
    body: {
      user: {
        email: account.email,
        password: account.password,
        name: account.name,
        last_name: account.lastName,
        terms_of_service: 1,
        company_slug: account.companySlug ?? null,
      },
    },
    schema: signUpAnswerSchema,
  });
  return data.data.email;
}
