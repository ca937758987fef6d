import type { ApiClient } from './client';

/**
 * Deletes the signed-in member's account, proved with the current password. The API ends every
 * session of the member with it.
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
 * Everything the product keeps about the member, as the API answers it, and the file name to save
 * it under.
 */
export async function exportAccountData(
  api: ApiClient,
): Promise<{ data: unknown; filename: string }> {
  const { data, headers } = await api.request('GET', '/api/v1/users/current/export');
  return { data, filename: exportFilename(headers) };
}
