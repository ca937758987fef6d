import type { APIRoute } from 'astro';
import { dataExportFallbackMessage } from '../../../lib/messages';
import { paths } from '../../../routes';
import { ApiError } from '../../../server/api/client';
import { exportAccountData } from '../../../server/api/account-data';
import { addFlash } from '../../../server/session/flash';

/**
 * AccountDataExport: the member's data as one JSON file to save. A 401 goes to SignIn as on any
 * page (the unauthorized middleware); any other failure comes back to the Your data page with a
 * toast saying so, rather than a file that holds an error.
 */
export const GET: APIRoute = async (context) => {
  try {
    const { data, filename } = await exportAccountData(await context.locals.api());
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'no-store',
      },
    });
  } catch (error) {
    if (error instanceof ApiError && error.isUnauthorized) throw error;
    // The API's own sentence when it gives one (the hourly limit says when to try again).
    const message = (error instanceof ApiError && error.serverMessage) || dataExportFallbackMessage;
    addFlash(context.cookies, { message, type: 'error' });
    return context.redirect(paths.accountData, 303);
  }
};
