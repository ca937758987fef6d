import { defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { logger } from '../../platform/logger.ts';
import { monitoring } from '../../platform/monitoring.ts';
import { signInFallbackMessage, unsavableCharacterMessage } from '../lib/messages';
import { paths } from '../routes';
import {
  signIn as signInToApi,
  signOut as signOutOfApi,
  type SignedIn,
} from '../server/api/sign-in';
import { signUp as signUpWithApi } from '../server/api/sign-up';
import { ApiError } from '../server/api/client';
import type { Navigation } from '../server/forms/navigation';
import { forgetRememberedDevice, readRememberedDevice } from '../server/session/remembered-device';
import { clearSession, forgetSignedInCookies } from '../server/session/session';
import { enterSession, enterSessionAndGoOn } from '../server/session/signed-in';
import { keepCompanySignIn } from '../server/session/company-sign-in';
import { startCompanySignIn } from '../server/api/company-sign-in';
import { FieldFailure } from './field-failure';
import { apiFailure } from './api-failure';
import { startOnboarding } from '../server/session/onboarding';
import { emailField, firstNameField, formText, isStorableText, lastNameField } from './fields';
import { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from '../../contract/limits.ts';

const enterYourPassword = 'Enter your password';

/**
 * The password may be left out only for an address whose company signs it in, which only the API
 * knows: a valid address without one is asked about first. An address that is not one cannot be
 * a company's, so its missing password is said at once, beside the address's own error.
 */
const signInInput = z
  .object({
    email: z.unknown(),
    password: formText(
      z
        .string()
        .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`),
      unsavableCharacterMessage('Password'),
    ),
  })
  .superRefine(({ email, password }, context) => {
    const address = emailField.safeParse(email);
    if (address.success) return;
    for (const issue of address.error.issues) {
      context.addIssue({ code: 'custom', path: ['email'], message: issue.message });
    }
    if (password === '') {
      context.addIssue({ code: 'custom', path: ['password'], message: enterYourPassword });
    }
  })
  .transform(({ email, password }) => ({ email: emailField.parse(email), password }));

/**
 * Sign-in: store the token and its expiry, then the MFA step the answer asks for. A required
 * verification, or an enrollment offer that is due, goes to the MFA page (the remembered page waits
 * until that step is done); otherwise the visitor goes on to the page they wanted, or the
 * Dashboard.
 */
export const signIn = defineAction({
  accept: 'form',
  input: signInInput,
  handler: async ({ email, password }, context): Promise<Navigation> => {
    const api = await context.locals.api();
    let answer;
    try {
      // An address whose company signs it in goes there, and its password goes nowhere.
      const company = await startCompanySignIn(api, { email });
      if (company) {
        keepCompanySignIn(context.cookies, company.token, company.expiresAt);
        return { redirectTo: paths.companySignIn };
      }
      if (password === '') throw new FieldFailure('password', enterYourPassword);
      answer = await signInToApi(api, { email, password }, readRememberedDevice(context.cookies));
    } catch (error) {
      if (error instanceof FieldFailure) throw error;
      if (error instanceof ApiError && error.isUnauthorized) clearSession(context);
      throw apiFailure(error, signInFallbackMessage);
    }
    if (answer.deviceRemembered === false) forgetRememberedDevice(context.cookies);
    return { redirectTo: enterSessionAndGoOn(context, answer) };
  },
});

const signUpInput = z.object({
  name: firstNameField,
  last_name: lastNameField,
  email: emailField,
  password: formText(
    z
      .string()
      .min(1, 'Enter a password')
      .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`),
    unsavableCharacterMessage('Password'),
  ),
  terms_of_service: z
    .string()
    .nullish()
    .refine(
      (accepted) => accepted === 'accepted',
      'Accept the terms of service to create an account',
    ),
  company_slug: z
    .string()
    .refine(isStorableText, unsavableCharacterMessage('The company in the address'))
    .trim()
    .max(100)
    .nullish()
    .transform((slug) => slug || undefined),
});

/**
 * Sign-up: create the account, then sign in at once with the address the API registered. Enrollment
 * in MFA is offered next, and the welcome pages follow it (the onboarding flag). A refusal about
 * one field (an address already registered, a password the policy refuses) is shown under that
 * field.
 */
export const signUp = defineAction({
  accept: 'form',
  input: signUpInput,
  handler: async (form, context): Promise<Navigation> => {
    const api = await context.locals.api();
    let answer: SignedIn;
    try {
      const email = await signUpWithApi(api, {
        email: form.email,
        password: form.password,
        name: form.name,
        lastName: form.last_name,
        companySlug: form.company_slug,
      });
      answer = await signInToApi(api, { email, password: form.password });
    } catch (error) {
      throw apiFailure(error, signInFallbackMessage, {
        'user.email': 'email',
        'user.password': 'password',
        'user.name': 'name',
        'user.last_name': 'last_name',
        'user.terms_of_service': 'terms_of_service',
      });
    }
    enterSession(context, answer);
    startOnboarding(context.cookies);
    return { redirectTo: paths.mfaEnrollment };
  },
});

/**
 * The call is made, then the session is cleared, even if the call failed, and the answer tells the
 * browser to forget the site's cache, storage and every cookie but a remembered device's. The
 * "signed out" toast is left by the page it goes to (SignedOut), after the browser has forgotten
 * them.
 */
export const signOut = defineAction({
  accept: 'form',
  handler: async (_input, context: ActionAPIContext): Promise<Navigation> => {
    try {
      await signOutOfApi(await context.locals.api());
    } catch (error) {
      logger.warn({ err: error }, 'sign-out: the API call failed; the session is cleared anyway');
    }
    clearSession(context);
    forgetSignedInCookies(context.cookies);
    context.locals.signedOut = 'signed-out';
    monitoring.identify(undefined);
    return { redirectTo: paths.signedOut };
  },
});
