import type { ApiClient } from './client';
import { noticeSchema } from './notice';

/** Unlocks the account with the token from the emailed link. */
export async function unlockAccount(api: ApiClient, token: string): Promise<void> {
  const query = new URLSearchParams({ unlock_token: token });
  await api.request('GET', `/api/v1/users/unlock?${query.toString()}`, { schema: noticeSchema });
}

/**
 * Asks for a new unlock link; the same answer whether or not the address has an account, or a lock.
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
