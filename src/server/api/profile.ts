import { z } from 'zod';
import type { ApiClient } from './client';

/** The current user. */
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
  /** The member's company signs them in with its own provider (docs/PRODUCT.md §15). */
  company_sign_in: z.boolean().optional().default(false),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;

export const currentUserPath = '/api/v1/users/current';

export async function fetchCurrentUser(api: ApiClient): Promise<CurrentUser> {
  const { data } = await api.request('GET', currentUserPath, {
    schema: currentUserSchema,
  });
  return data;
}

/**
 * What the welcome pages and the Account page's profile change (`PATCH /api/v1/users/current`).
 */
interface ProfileChange {
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
