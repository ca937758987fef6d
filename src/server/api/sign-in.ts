import { MFA_TOKEN_HEADER } from '../../../contract/headers.ts';
import { z } from 'zod';
import { ApiError, type ApiClient } from './client';

export const signInAnswerSchema = z.object({
  expires_at: z.iso.datetime({ offset: true }),
  mfa_requires_verification: z.boolean().optional().default(false),
  mfa_required: z.boolean().optional().default(false),
  device_remembered: z.boolean().optional(),
});

export interface SignedIn {
  readonly token: string;
  readonly expiresAt: Date;
  readonly mfaRequiresVerification: boolean;
  readonly mfaRequired: boolean;
  /**
   * Only when a remembered device's token was sent: whether it was taken, in which case the
   * session is past its step already and {@link mfaToken} proves it.
   */
  readonly deviceRemembered: boolean | undefined;
  /** The session's mfa token, when the sign-in took the step by a remembered device. */
  readonly mfaToken: string | undefined;
}

/** A sign-in answer without a token is a failure. */
export async function signIn(
  api: ApiClient,
  credentials: { email: string; password: string },
  /** The token of this browser as a remembered device, if it has one. */
  deviceToken?: string,
): Promise<SignedIn> {
  const { data, headers } = await api.request('POST', '/api/v1/users/sign_in', {
    body: { user: credentials, ...(deviceToken ? { device_token: deviceToken } : {}) },
    schema: signInAnswerSchema,
  });
  return signedIn(data, headers);
}

/**
 * A passkey's answer to the challenge given with `challengeToken` signs in past the step
 * (`POST /api/v1/users/passkey-sign-in`).
 */
export async function signInWithPasskey(
  api: ApiClient,
  challengeToken: string,
  credential: unknown,
): Promise<SignedIn> {
  const { data, headers } = await api.request('POST', '/api/v1/users/passkey-sign-in', {
    body: { challenge_token: challengeToken, credential },
    schema: signInAnswerSchema,
  });
  return signedIn(data, headers);
}

/** The session a sign-in answer carries: its token in `Authorization`, perhaps an mfa token. */
export function signedIn(data: z.infer<typeof signInAnswerSchema>, headers: Headers): SignedIn {
  const token = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
  if (!token) throw new ApiError(502, undefined);
  return {
    token,
    expiresAt: new Date(data.expires_at),
    mfaRequiresVerification: data.mfa_requires_verification,
    mfaRequired: data.mfa_required,
    deviceRemembered: data.device_remembered,
    mfaToken: headers.get(MFA_TOKEN_HEADER)?.trim() || undefined,
  };
}

export async function signOut(api: ApiClient): Promise<void> {
  await api.request('DELETE', '/api/v1/users/sign_out');
}
