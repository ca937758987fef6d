import type { ApiClient } from './client';
import { noticeSchema } from './notice';
import { currentUserSchema, type CurrentUser } from './profile';

/**
 * Asks for a password reset link. The API answers the same whether or not the address has an
 * account; its sentence is returned when it sends one.
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

/** Sets a new password with the token from the emailed link. */
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
 * Changes the signed-in member's password, proved with the current one; answers the current user.
 * The API ends the member's other sessions, not this one.
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
