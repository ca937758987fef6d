import type { APIRoute } from 'astro';
import { accountDeletedMessage } from '../lib/messages';
import { paths } from '../routes';
import { addFlash } from '../server/session/flash';
import { isAuthenticated } from '../server/session/session';

/**
 * The step after deleting the account, once the browser has cleared the site's data (as
 * SignedOut's): the toast that says so, for SignIn. A visitor with a session is told nothing.
 */
export const GET: APIRoute = ({ cookies, locals, redirect }) => {
  if (!isAuthenticated(locals.session)) {
    addFlash(cookies, { message: accountDeletedMessage, type: 'success' });
  }
  return redirect(paths.signIn, 303);
};
