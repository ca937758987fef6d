import type { APIRoute } from 'astro';
import { signedOutMessage } from '../lib/messages';
import { paths } from '../routes';
import { addFlash } from '../server/session/flash';
import { isAuthenticated } from '../server/session/session';

/**
 * The step after signing out, once the browser has cleared the site's data: the "signed out"
 * toast for SignIn. A visitor who is still signed in is told nothing, and SignIn sends them on.
 */
export const GET: APIRoute = ({ cookies, locals, redirect }) => {
  if (!isAuthenticated(locals.session)) {
    addFlash(cookies, { message: signedOutMessage, type: 'success', autoDismiss: true });
  }
  return redirect(paths.signIn, 303);
};
