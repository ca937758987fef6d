import type { APIRoute } from 'astro';
import { companySignInFallbackMessage } from '../../../lib/messages';
import { paths } from '../../../routes';
import { ApiError, ApiUnavailableError } from '../../../server/api/client';
import { finishCompanySignIn } from '../../../server/api/company-sign-in';
import { forgetCompanySignIn, readCompanySignIn } from '../../../server/session/company-sign-in';
import { addFlash } from '../../../server/session/flash';
import { startOnboarding } from '../../../server/session/onboarding';
import { enterSession, enterSessionAndGoOn } from '../../../server/session/signed-in';
import { ErrorMessage } from '../../../../contract/error-messages.ts';

/**
 * Where a company's OpenID Connect provider sends the browser back, and where the assertion
 * consumer sends it after a SAML provider's answer. The answer goes to the API
 * with this browser's sign-in token, so an answer carried to another browser does nothing. Then:
 * signed in (a first sign-in as a new member, through the welcome pages), or the password of the
 * existing account with that address asked to link them, or back to SignIn saying why not.
 */
export const GET: APIRoute = async (context) => {
  const { cookies, redirect, url } = context;
  const token = readCompanySignIn(cookies);
  const refuse = (message: string) => {
    forgetCompanySignIn(cookies);
    addFlash(cookies, { message, type: 'error' });
    return redirect(paths.signIn, 303);
  };
  if (!token) return refuse(ErrorMessage.companySignInExpired);
  let outcome;
  try {
    outcome = await finishCompanySignIn(await context.locals.api(), token, url.search.slice(1));
  } catch (error) {
    if (error instanceof ApiUnavailableError || !(error instanceof ApiError)) throw error;
    return refuse(error.serverMessage ?? companySignInFallbackMessage);
  }
  if (outcome.kind === 'link_required') return redirect(paths.companySignInLink, 303);
  forgetCompanySignIn(cookies);
  if (!outcome.created) return redirect(enterSessionAndGoOn(context, outcome.answer), 303);
  // A new member: the offer of a second step if it is due, then the welcome pages, as at sign-up.
  startOnboarding(cookies);
  return redirect(enterSession(context, outcome.answer) ? paths.mfaEnrollment : paths.welcome, 303);
};
