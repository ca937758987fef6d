import { z } from 'zod';
import { ApiError, type ApiClient } from './api-client';

/** The current user (docs/PRODUCT.md §3). */
export const currentUserSchema = z.object({
  external_id: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.object({ name: z.string() }).nullable().optional(),
  request_count: z.number().int().nonnegative(),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;

const signInAnswerSchema = z.object({
  expires_at: z.iso.datetime({ offset: true }),
  mfa_requires_verification: z.boolean().optional().default(false),
  mfa_required: z.boolean().optional().default(false),
});

export interface SignedIn {
  readonly token: string;
  readonly expiresAt: Date;
  readonly mfaRequiresVerification: boolean;
  readonly mfaRequired: boolean;
}

/** docs/PRODUCT.md §4: a sign-in answer without a token is a failure. */
export async function signIn(
  api: ApiClient,
  credentials: { email: string; password: string },
): Promise<SignedIn> {
  const { data, headers } = await api.request('POST', '/api/v1/users/sign_in', {
    body: { user: credentials },
    schema: signInAnswerSchema,
  });
  const token = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
  if (!token) throw new ApiError(502, undefined);
  return {
    token,
    expiresAt: new Date(data.expires_at),
    mfaRequiresVerification: data.mfa_requires_verification,
    mfaRequired: data.mfa_required,
  };
}

export async function fetchCurrentUser(api: ApiClient): Promise<CurrentUser> {
  const { data } = await api.request('GET', '/api/v1/users/current', {
    schema: currentUserSchema,
  });
  return data;
}

export async function signOut(api: ApiClient): Promise<void> {
  await api.request('DELETE', '/api/v1/users/sign_out');
}
