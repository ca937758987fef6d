import type { APIRoute } from 'astro';
import { companySignInFallbackMessage } from '../../../../../lib/messages';
import { paths } from '../../../../../routes';
import { ApiError, ApiUnavailableError } from '../../../../../server/api/client';
import { answerSamlSignIn } from '../../../../../server/api/company-sign-in';
import { postedForm } from '../../../../../server/forms/form-body';
import { forgetCompanySignIn } from '../../../../../server/session/company-sign-in';
import { addFlash } from '../../../../../server/session/flash';

/**
 * The company's SAML assertion consumer: the provider's page posts its signed answer here from the
 * provider's own site, so the post brings none of the portal's cookies (they are SameSite=Lax).
 * The API checks the answer and keeps it on the sign-in it answers; the browser then goes, by a
 * GET that does bring its cookies, to the callback, which finishes the sign-in that this browser
 * started and no other.
 */
export const POST: APIRoute = async (context) => {
  const { cookies, locals, params, redirect, request } = context;
  const posted = (await postedForm(request, locals.bodyLimit))?.get('SAMLResponse');
  const samlResponse = typeof posted === 'string' ? posted : '';
  try {
    await answerSamlSignIn(await locals.api(), params['companySlug'] ?? '', samlResponse);
  } catch (error) {
    if (error instanceof ApiUnavailableError || !(error instanceof ApiError)) throw error;
    forgetCompanySignIn(cookies);
    addFlash(cookies, {
      message: error.serverMessage ?? companySignInFallbackMessage,
      type: 'error',
    });
    return redirect(paths.signIn, 303);
  }
  return redirect(paths.companySignInCallback, 303);
};
