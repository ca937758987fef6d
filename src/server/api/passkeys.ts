import { z } from 'zod';
import type { ApiClient } from './client';
import { passStep, type StepPassed } from './mfa';

/**
 * Passkeys through the API: the API makes every WebAuthn challenge and checks every answer; the
 * portal passes the options to the browser and its answer back, untouched, as JSON objects.
 */

/** WebAuthn options as the API made them, for the browser's `navigator.credentials` call. */
export type CeremonyOptions = Readonly<Record<string, unknown>>;

const optionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });

const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
  backed_up: z.boolean(),
});

/** A passkey of the member, as Sign-in and security lists it. */
export interface Passkey {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | undefined;
  /** Synced by the member's passkey provider (so not lost with one device). */
  readonly backedUp: boolean;
}

export const passkeysPath = '/api/v1/mfa/passkeys';

export async function fetchPasskeys(api: ApiClient): Promise<Passkey[]> {
  const { data } = await api.request('GET', passkeysPath, {
    schema: z.object({ passkeys: z.array(passkeySchema) }),
  });
  return data.passkeys.map((passkey) => ({
    id: passkey.id,
    name: passkey.name,
    createdAt: new Date(passkey.created_at),
    lastUsedAt: passkey.last_used_at ? new Date(passkey.last_used_at) : undefined,
    backedUp: passkey.backed_up,
  }));
}

export async function passkeyRegistrationOptions(api: ApiClient): Promise<CeremonyOptions> {
  const { data } = await api.request('POST', '/api/v1/mfa/passkeys/registration-options', {
    schema: optionsSchema,
  });
  return data.options;
}

/** Keeps the passkey the browser made; the session is past its step with it. */
export function addPasskey(api: ApiClient, name: string, credential: unknown): Promise<StepPassed> {
  return passStep(api, '/api/v1/mfa/passkeys', { name, credential });
}

export async function removePasskey(
  api: ApiClient,
  passkeyId: string,
  currentPassword: string,
): Promise<void> {
  await api.request('DELETE', `/api/v1/mfa/passkeys/${encodeURIComponent(passkeyId)}`, {
    body: { user: { current_password: currentPassword } },
  });
}

export async function passkeyStepOptions(api: ApiClient): Promise<CeremonyOptions> {
  const { data } = await api.request('POST', '/api/v1/mfa/passkeys/authentication-options', {
    schema: optionsSchema,
  });
  return data.options;
}

export function verifyPasskey(
  api: ApiClient,
  credential: unknown,
  rememberDevice: boolean,
): Promise<StepPassed> {
  return passStep(api, '/api/v1/mfa/passkeys/verify', {
    credential,
    ...(rememberDevice ? { remember_device: true } : {}),
  });
}

/** Options for a sign-in with a passkey alone, and the token that ties them to this browser. */
export async function passkeySignInOptions(
  api: ApiClient,
): Promise<{ options: CeremonyOptions; challengeToken: string }> {
  const { data } = await api.request('POST', '/api/v1/users/passkey-sign-in/options', {
    schema: optionsSchema.extend({ challenge_token: z.string() }),
  });
  return { options: data.options, challengeToken: data.challenge_token };
}
