import { MFA_TOKEN_HEADER } from '../../../contract/headers.ts';
import { z } from 'zod';
import { ApiError, type ApiClient } from './client';

/** The current user (docs/PRODUCT.md §3). */
export const currentUserSchema = z.object({
  external_id: z.string(),
  full_name: z.string(),
  /** The names full_name is made of (the reference API answers them; others may not). */
  name: z.string().optional(),
  last_name: z.string().optional(),
  email: z.string(),
  company: z.object({ name: z.string() }).nullable().optional(),
  request_count: z.number().int().nonnegative(),
  help_topics: z.array(z.string()).optional().default([]),
  phone_number: z.string().nullable().optional().default(null),
  preferred_contact_method: z.enum(['email', 'phone', 'text']).nullable().optional().default(null),
  /** Absent from an API that does not prove addresses: nothing to ask the member then. */
  email_verified: z.boolean().optional().default(true),
  pending_email: z.string().nullable().optional().default(null),
  /** Whether a phone gets the sign-in codes, and the last digits of that phone. */
  mfa_enrolled: z.boolean().optional().default(false),
  phone_last_digits: z.string().nullable().optional().default(null),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;

const signInAnswerSchema = z.object({
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
   * session is past its MFA step already and {@link mfaToken} proves it.
   */
  readonly deviceRemembered: boolean | undefined;
  /** The session's mfa token, when the sign-in took the MFA step by a remembered device. */
  readonly mfaToken: string | undefined;
}

/** docs/PRODUCT.md §4: a sign-in answer without a token is a failure. */
export async function signIn(
  api: ApiClient,
  credentials: { email: string; password: string },
  /** The token of this browser as a remembered device (docs/PRODUCT.md §11.2), if it has one. */
  deviceToken?: string,
): Promise<SignedIn> {
  const { data, headers } = await api.request('POST', '/api/v1/users/sign_in', {
    body: { user: credentials, ...(deviceToken ? { device_token: deviceToken } : {}) },
    schema: signInAnswerSchema,
  });
  return signedIn(data, headers);
}

/**
 * docs/PRODUCT.md §7, §11.2: a passkey's answer to the challenge given with `challengeToken`
 * signs in past the MFA step (`POST /api/v1/users/passkey-sign-in`).
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

function signedIn(data: z.infer<typeof signInAnswerSchema>, headers: Headers): SignedIn {
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

export const currentUserPath = '/api/v1/users/current';

export async function fetchCurrentUser(api: ApiClient): Promise<CurrentUser> {
  const { data } = await api.request('GET', currentUserPath, {
    schema: currentUserSchema,
  });
  return data;
}

const joinableCompanySchema = z.object({
  company: z.object({ slug: z.string(), name: z.string().min(1).max(200) }),
});

/** A company members may join by the sign-up link with its slug. */
export type JoinableCompany = z.infer<typeof joinableCompanySchema>['company'];

/**
 * What the API says of a sign-up link: its company, that it knows no such link, or nothing yet
 * (its look-ups from this address are used up, 429): the sign-up itself still checks the slug,
 * so an office whose members all follow one link never finds the page broken.
 */
export type CompanyLink =
  | { readonly status: 'known'; readonly company: JoinableCompany }
  | { readonly status: 'unknown' }
  | { readonly status: 'unchecked' };

/** docs/PRODUCT.md §7.2: the company a sign-up link names; any other failure is thrown. */
export async function fetchCompanyLink(api: ApiClient, slug: string): Promise<CompanyLink> {
  try {
    const { data } = await api.request('GET', `/api/v1/companies/${encodeURIComponent(slug)}`, {
      schema: joinableCompanySchema,
    });
    return { status: 'known', company: data.company };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { status: 'unknown' };
    if (error instanceof ApiError && error.status === 429) return { status: 'unchecked' };
    throw error;
  }
}

export async function signOut(api: ApiClient): Promise<void> {
  await api.request('DELETE', '/api/v1/users/sign_out');
}

/** The answer of the calls that only report what happened, in a sentence for people. */
const noticeSchema = z.object({ message: z.string().min(1).max(500) }).partial();

/**
 * docs/PRODUCT.md §7.1: asks for a password reset link. The API answers the same whether or not
 * the address has an account; its sentence is returned when it sends one.
 */
export async function requestPasswordReset(
  api: ApiClient,
  email: string,
): Promise<string | undefined> {
  const { data } = await api.request('POST', '/api/v1/users/password', {
    body: { user: { email } },
    schema: noticeSchema,
  });
  return data.message;
}

/** docs/PRODUCT.md §7.1: sets a new password with the token from the emailed link. */
export async function resetPassword(
  api: ApiClient,
  change: { token: string; password: string; passwordConfirmation: string },
): Promise<void> {
  await api.request('PUT', '/api/v1/users/password', {
    body: {
      reset_password_token: change.token,
      password: change.password,
      password_confirmation: change.passwordConfirmation,
    },
    schema: noticeSchema,
  });
}

/**
 * docs/PRODUCT.md §7.1, §11.2: changes the signed-in member's password, proved with the current
 * one; answers the current user. The API ends the member's other sessions, not this one.
 */
export async function changePassword(
  api: ApiClient,
  change: { currentPassword: string; password: string },
): Promise<CurrentUser> {
  const { data } = await api.request('PATCH', '/api/v1/users', {
    body: { user: { current_password: change.currentPassword, password: change.password } },
    schema: currentUserSchema,
  });
  return data;
}

/**
 * docs/PRODUCT.md §7.1, §11.2: deletes the signed-in member's account, proved with the current
 * password. The API ends every session of the member with it.
 */
export async function deleteAccount(api: ApiClient, currentPassword: string): Promise<void> {
  await api.request('DELETE', '/api/v1/users', {
    body: { user: { current_password: currentPassword } },
  });
}

/** What the API names the export file, or a name of the same form when it names none. */
function exportFilename(headers: Headers): string {
  const named = /filename="([\w.-]+\.json)"/.exec(headers.get('content-disposition') ?? '')?.[1];
  return named ?? 'member-concierge-data.json';
}

/**
 * docs/PRODUCT.md §7.1, §11.2: everything the product keeps about the member, as the API
 * answers it, and the file name to save it under.
 */
export async function exportAccountData(
  api: ApiClient,
): Promise<{ data: unknown; filename: string }> {
  const { data, headers } = await api.request('GET', '/api/v1/users/current/export');
  return { data, filename: exportFilename(headers) };
}

/** One of the member's live sessions as the API describes it (docs/PRODUCT.md §7.2, §11.2). */
export const deviceSessionSchema = z.object({
  id: z.string().min(1).max(64),
  browser: z.string(),
  system: z.string().nullable(),
  device_type: z.string().nullable().optional().default(null),
  network: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }),
  current: z.boolean(),
});

export type DeviceSession = z.infer<typeof deviceSessionSchema>;

/** docs/PRODUCT.md §7.2: the member's live sessions, most recently used first. */
export const deviceSessionsPath = '/api/v1/users/sessions';

export async function fetchDeviceSessions(api: ApiClient): Promise<DeviceSession[]> {
  const { data } = await api.request('GET', deviceSessionsPath, {
    schema: z.object({ sessions: z.array(deviceSessionSchema) }),
  });
  return data.sessions;
}

/** docs/PRODUCT.md §7.2: ends one of the member's sessions (404 once it has ended). */
export async function endDeviceSession(api: ApiClient, sessionId: string): Promise<void> {
  await api.request('DELETE', `/api/v1/users/sessions/${encodeURIComponent(sessionId)}`);
}

/** docs/PRODUCT.md §7.2: ends every session of the member but this one. */
export async function endOtherDeviceSessions(api: ApiClient): Promise<void> {
  await api.request('DELETE', '/api/v1/users/sessions');
}

const rememberedDeviceSchema = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int()]).transform(String),
  browser: z.string(),
  system: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
  expires_at: z.iso.datetime({ offset: true }),
});

/** A browser that skips the MFA step at sign-in until `expires_at` (docs/PRODUCT.md §11.2). */
export type RememberedDevice = z.infer<typeof rememberedDeviceSchema>;

/** docs/PRODUCT.md §11.2: the member's remembered devices, newest first. */
export const rememberedDevicesPath = '/api/v1/users/remembered-devices';

export async function fetchRememberedDevices(api: ApiClient): Promise<RememberedDevice[]> {
  const { data } = await api.request('GET', rememberedDevicesPath, {
    schema: z.object({ remembered_devices: z.array(rememberedDeviceSchema) }),
  });
  return data.remembered_devices;
}

/** docs/PRODUCT.md §11.2: forgets one remembered device: its next sign-in takes the step. */
export async function forgetRememberedDevice(api: ApiClient, deviceId: string): Promise<void> {
  await api.request('DELETE', `/api/v1/users/remembered-devices/${encodeURIComponent(deviceId)}`);
}

/** docs/PRODUCT.md §7.1: unlocks the account with the token from the emailed link. */
export async function unlockAccount(api: ApiClient, token: string): Promise<void> {
  const query = new URLSearchParams({ unlock_token: token });
  await api.request('GET', `/api/v1/users/unlock?${query.toString()}`, { schema: noticeSchema });
}

/**
 * docs/PRODUCT.md §7.2: asks for a new unlock link; the same answer whether or not the address
 * has an account, or a lock.
 */
export async function requestUnlockLink(
  api: ApiClient,
  email: string,
): Promise<string | undefined> {
  const { data } = await api.request('POST', '/api/v1/users/unlock', {
    body: { user: { email } },
    schema: noticeSchema,
  });
  return data.message;
}

const outboxSchema = z.object({
  messages: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      channel: z.enum(['email', 'sms']),
      recipient: z.string(),
      subject: z.string().nullable(),
      text_body: z.string(),
      created_at: z.string(),
      sent_at: z.string().nullable(),
    }),
  ),
});

export type OutboxMessage = z.infer<typeof outboxSchema>['messages'][number];

/** Every email and text the API wrote, newest first (only where the outbox viewer is on). */
export async function fetchOutbox(api: ApiClient): Promise<OutboxMessage[]> {
  const { data } = await api.request('GET', '/api/v1/outbox', { schema: outboxSchema });
  return data.messages;
}

/** docs/PRODUCT.md §3: the sign-up answer's `data` is a JSON string holding `{email}`. */
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

export interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly lastName: string;
  readonly companySlug: string | undefined;
}

/** docs/PRODUCT.md §7.1: creates the account; answers the email it was registered under. */
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

/**
 * What the welcome pages and the Account page's profile change (docs/PRODUCT.md §7.2,
 * `PATCH /api/v1/users/current`).
 */
export interface ProfileChange {
  readonly name?: string;
  readonly last_name?: string;
  readonly help_topics?: readonly string[];
  readonly phone_number?: string | null;
  readonly preferred_contact_method?: 'email' | 'phone' | 'text' | null;
}

export async function updateProfile(api: ApiClient, change: ProfileChange): Promise<CurrentUser> {
  const { data } = await api.request('PATCH', '/api/v1/users/current', {
    body: { user: change },
    schema: currentUserSchema,
  });
  return data;
}

const securityEventsSchema = z.object({
  events: z.array(
    z.object({
      // A kind this portal does not know yet is kept, and shown in general words.
      kind: z.string(),
      occurred_at: z.iso.datetime({ offset: true }),
      network: z.string().nullable().optional().default(null),
      user_agent: z.string().nullable().optional().default(null),
      browser: z.string().nullable().optional().default(null),
      system: z.string().nullable().optional().default(null),
    }),
  ),
  next: z.string().nullable().optional().default(null),
  previous: z.string().nullable().optional().default(null),
});

export type SecurityEventsPage = z.infer<typeof securityEventsSchema>;

/** The API's cursors; anything else in `?before=` or `?after=` is not passed on. */
const securityEventCursor = /^\d{1,15}-\d{1,10}$/;

export function securityEventCursorFrom(value: string | null | undefined): string | undefined {
  return value && securityEventCursor.test(value) ? value : undefined;
}

/**
 * docs/PRODUCT.md §7.2: a page of the member's security events, newest first: the newest, the
 * page older than `before` or the page newer than `after`.
 */
export interface SecurityEventsPosition {
  before?: string | undefined;
  after?: string | undefined;
}

/** The position an Activity address (`?before=`, else `?after=`) asks for. */
export function securityEventsPositionFrom(search: URLSearchParams): SecurityEventsPosition {
  const before = securityEventCursorFrom(search.get('before'));
  const after = before ? undefined : securityEventCursorFrom(search.get('after'));
  return { before, after };
}

/** The API's address of one page of the account's security events. */
export function securityEventsPath(position: SecurityEventsPosition): string {
  const query = new URLSearchParams();
  if (position.before) query.set('before', position.before);
  else if (position.after) query.set('after', position.after);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return `/api/v1/users/events${search}`;
}

export async function fetchSecurityEvents(
  api: ApiClient,
  position: SecurityEventsPosition,
): Promise<SecurityEventsPage> {
  const { data } = await api.request('GET', securityEventsPath(position), {
    schema: securityEventsSchema,
  });
  return data;
}

const confirmationAnswerSchema = z.object({
  email: z.string(),
  changed: z.boolean().optional().default(false),
});

/**
 * docs/PRODUCT.md §7.1, §11.2: follows an emailed confirmation link (a sign-up's, or a change's to
 * the new address); answers the account's address and whether it changed.
 */
export async function confirmEmail(
  api: ApiClient,
  token: string,
): Promise<{ email: string; changed: boolean }> {
  const { data } = await api.request('PUT', '/api/v1/users/confirmation', {
    body: { confirmation_token: token },
    schema: confirmationAnswerSchema,
  });
  return data;
}

/** docs/PRODUCT.md §7.1: a new confirmation link to the signed-in member's own address. */
export async function resendConfirmation(api: ApiClient): Promise<string> {
  const { data } = await api.request('POST', '/api/v1/users/confirmation', {
    schema: z.object({ email: z.string() }),
  });
  return data.email;
}

/**
 * docs/PRODUCT.md §7.1, §11.2: asks to change the signed-in member's address, proved with the
 * current password; the API answers alike whether or not another account uses the address.
 */
export async function changeEmail(
  api: ApiClient,
  change: { currentPassword: string; email: string },
): Promise<void> {
  await api.request('PATCH', '/api/v1/users/email', {
    body: { user: { current_password: change.currentPassword, email: change.email } },
    schema: noticeSchema,
  });
}
