import { z } from 'zod';
import type { ApiClient } from './client';
import { noticeSchema } from './notice';

const confirmationAnswerSchema = z.object({
  email: z.string(),
  changed: z.boolean().optional().default(false),
});

/**
 * Follows an emailed confirmation link (a sign-up's, or a change's to the new address); answers the
 * account's address and whether it changed.
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

/** A new confirmation link to the signed-in member's own address. */
export async function resendConfirmation(api: ApiClient): Promise<string> {
  const { data } = await api.request('POST', '/api/v1/users/confirmation', {
    schema: z.object({ email: z.string() }),
  });
  return data.email;
}

/**
 * Asks to change the signed-in member's address, proved with the current password; the API answers
 * alike whether or not another account uses the address.
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
