import type { ApiClient } from './client';
import { noticeSchema } from './notice';

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
