import { z } from 'zod';
import type { ApiClient } from './client';

/** Where the member stands with two-step verification (`GET /api/v1/mfa`). */
const mfaStatusSchema = z.object({
  enrolled: z.boolean(),
  // A factor this portal does not know yet is left out.
  methods: z
    .array(z.string())
    .default([])
    .transform((methods) => methods.filter(isSecondFactor)),
  verified: z.boolean(),
  required: z.boolean(),
  phone_last_digits: z.string().nullable(),
  recovery_codes_left: z.number().int().nonnegative().default(0),
  // A server that does not say lets the ceremony itself answer whether the password is needed.
  recently_proven: z.boolean().default(true),
});

/** A second factor the member may have: a passkey, an authenticator app, a phone for texts. */
export type SecondFactor = 'passkey' | 'sms' | 'app';

function isSecondFactor(method: string): method is SecondFactor {
  return method === 'passkey' || method === 'sms' || method === 'app';
}

export interface MfaStatus {
  /** The member has a second factor: this step verifies; otherwise it enrolls one. */
  readonly enrolled: boolean;
  /** The member's second factors, the one used last first, then passkeys, the app, the phone. */
  readonly methods: readonly SecondFactor[];
  /** This session has passed the step already. */
  readonly verified: boolean;
  /** The member's company requires the step: there is no skipping it. */
  readonly required: boolean;
  /** The last two digits of the phone the codes go to, if there is one. */
  readonly phoneLastDigits: string | undefined;
  /** How many of the member's recovery codes are still unused. */
  readonly recoveryCodesLeft: number;
  /** The session may add a way to sign in now; otherwise the password is asked first. */
  readonly recentlyProven: boolean;
}

export const mfaStatusPath = '/api/v1/mfa';

export async function fetchMfaStatus(api: ApiClient): Promise<MfaStatus> {
  const { data } = await api.request('GET', mfaStatusPath, { schema: mfaStatusSchema });
  return {
    enrolled: data.enrolled,
    methods: data.methods,
    verified: data.verified,
    required: data.required,
    phoneLastDigits: data.phone_last_digits ?? undefined,
    recoveryCodesLeft: data.recovery_codes_left,
    recentlyProven: data.recently_proven,
  };
}

const codeSentSchema = z.object({
  message: z.string().optional(),
  phone_last_digits: z.string().nullable().optional(),
  resend_after_seconds: z.number().int().nonnegative().optional(),
});

/** A code is on its way: to the phone ending in these digits, and when another may be asked for. */
export interface CodeSent {
  readonly phoneLastDigits: string | undefined;
  readonly resendAfterSeconds: number;
}

/** The wait before another code, when the API does not say. */
const defaultResendAfterSeconds = 60;

/** Stores the number to enroll (`POST /api/v1/mfa`). */
export async function enrollPhone(api: ApiClient, phoneNumber: string): Promise<void> {
  await api.request('POST', '/api/v1/mfa', { body: { mfa_number: phoneNumber } });
}

/** Texts a code (`POST /api/v1/mfa/send-otp`). */
export async function sendCode(api: ApiClient): Promise<CodeSent> {
  const { data } = await api.request('POST', '/api/v1/mfa/send-otp', { schema: codeSentSchema });
  return {
    phoneLastDigits: data.phone_last_digits ?? undefined,
    resendAfterSeconds: data.resend_after_seconds ?? defaultResendAfterSeconds,
  };
}

/** How the API answers a second step taken (its `mfa-token` header, and what the body adds). */
const stepPassedSchema = z.object({
  recovery_codes: z.array(z.string()).optional(),
  recovery_codes_left: z.number().int().nonnegative().optional(),
  device_token: z.string().optional(),
  device_token_expires_at: z.iso.datetime({ offset: true }).optional(),
});

/** A second step the API accepted. */
export interface StepPassed {
  /** The new mfa token of this session, from the `mfa-token` header; absent is a failure. */
  readonly mfaToken: string | undefined;
  /** Recovery codes made by this step (the member's first strong factor), shown once. */
  readonly recoveryCodes: readonly string[] | undefined;
  /** After a recovery code: how many are left. */
  readonly recoveryCodesLeft: number | undefined;
  /** When the member asked: this browser's token as a remembered device, and its end. */
  readonly rememberedDevice: { readonly token: string; readonly expiresAt: Date } | undefined;
}

/** The way the step was taken: a texted code, the authenticator app, or a recovery code. */
export type StepMethod = SecondFactor | 'recovery_code';

export async function passStep(
  api: ApiClient,
  path: string,
  body: Record<string, unknown>,
): Promise<StepPassed> {
  const { data, headers } = await api.request('POST', path, { body, schema: stepPassedSchema });
  return {
    mfaToken: headers.get('mfa-token')?.trim() || undefined,
    recoveryCodes: data.recovery_codes,
    recoveryCodesLeft: data.recovery_codes_left,
    rememberedDevice:
      data.device_token && data.device_token_expires_at
        ? { token: data.device_token, expiresAt: new Date(data.device_token_expires_at) }
        : undefined,
  };
}

/**
 * Checks a code of the step (`POST /api/v1/mfa/verify`).
 */
export function verifyCode(
  api: ApiClient,
  code: string,
  method: StepMethod = 'sms',
  /** Asks the API to remember this browser for 30 days. */
  rememberDevice = false,
): Promise<StepPassed> {
  return passStep(api, '/api/v1/mfa/verify', {
    otp: code,
    method,
    ...(rememberDevice ? { remember_device: true } : {}),
  });
}

const appSetupSchema = z.object({ secret: z.string(), uri: z.string() });

/** What an authenticator app needs: the key to type, and the address its QR code carries. */
export interface AppSetup {
  readonly secret: string;
  readonly uri: string;
}

/**
 * The setup an `otpauth://totp/…` address describes, when it is one whose secret is 32 base32
 * letters as the API makes them: for showing a setup again after its code was refused without
 * JavaScript (the form posts the address back; nothing else of it is trusted).
 */
export function appSetupFromUri(uri: string): AppSetup | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  const secret = url.searchParams.get('secret') ?? '';
  if (url.protocol !== 'otpauth:' || url.host !== 'totp' || !/^[A-Z2-7]{32}$/.test(secret)) {
    return undefined;
  }
  return { secret, uri };
}

/** A new secret for the member's authenticator app (`POST /mfa/app`). */
export async function startAppSetup(api: ApiClient): Promise<AppSetup> {
  const { data } = await api.request('POST', '/api/v1/mfa/app', { schema: appSetupSchema });
  return data;
}

/**
 * The app's first code confirms it (`POST /mfa/app/confirm`), which renews this session's mfa token
 * and, for the member's first strong factor, makes recovery codes.
 */
export function confirmApp(api: ApiClient, code: string): Promise<StepPassed> {
  return passStep(api, '/api/v1/mfa/app/confirm', { otp: code });
}

/** Removes the authenticator app, proved with the current password. */
export async function removeApp(api: ApiClient, currentPassword: string): Promise<void> {
  await api.request('DELETE', '/api/v1/mfa/app', {
    body: { user: { current_password: currentPassword } },
  });
}

/** Removes the phone of two-step verification, proved with the password. */
export async function removePhone(api: ApiClient, currentPassword: string): Promise<void> {
  await api.request('DELETE', '/api/v1/mfa/phone', {
    body: { user: { current_password: currentPassword } },
  });
}

const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/**
 * Ten new recovery codes, proved with the current password; the old ones stop working
 * (`POST /api/v1/mfa/recovery-codes`).
 */
export async function renewRecoveryCodes(
  api: ApiClient,
  currentPassword: string,
): Promise<readonly string[]> {
  const { data } = await api.request('POST', '/api/v1/mfa/recovery-codes', {
    body: { user: { current_password: currentPassword } },
    schema: recoveryCodesSchema,
  });
  return data.recovery_codes;
}

/**
 * The password given again (`POST /api/v1/users/reauthentication`), so that the session may add a
 * way to sign in for the next few minutes.
 */
export async function reauthenticate(api: ApiClient, currentPassword: string): Promise<void> {
  await api.request('POST', '/api/v1/users/reauthentication', {
    body: { user: { current_password: currentPassword } },
  });
}

/** Records that the member declined the enrollment offer. */
export async function skipEnrollment(api: ApiClient): Promise<void> {
  await api.request('POST', '/api/v1/mfa/skip');
}

/**
 * Turns two-step verification off (`DELETE /api/v1/mfa`), proved with the current password; refused
 * where the company requires it.
 */
export async function turnOffTwoStep(api: ApiClient, currentPassword: string): Promise<void> {
  await api.request('DELETE', '/api/v1/mfa', {
    body: { user: { current_password: currentPassword } },
  });
}
