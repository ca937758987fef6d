import { defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { signedOutMessage, signInFallbackMessage } from '../lib/messages';
import { paths } from '../routes';
import { signIn as signInToApi, signOut as signOutOfApi } from '../server/accounts';
import { ApiError } from '../server/api-client';
import { addFlash } from '../server/flash';
import type { Navigation } from '../server/navigation';
import { takeReturnTo } from '../server/return-to';
import { clearSession, startSession, writeMfaStep, type MfaStep } from '../server/session';
import { apiFailure } from './api-failure';
import { emailField, formText, passwordMaxLength } from './fields';

const signInInput = z.object({
  email: emailField,
  password: formText(
    z
      .string()
      .min(1, 'Enter your password')
      .max(passwordMaxLength, `Password must be ${passwordMaxLength} characters or fewer`),
  ),
});

/**
 * docs/PRODUCT.md §4 sign-in: store the token and its expiry, then the MFA step the
 * answer asks for. A required verification goes to the MFA page; an offered
 * enrollment is remembered (the page stays reachable) and the visitor goes on
 * to the page they wanted, or the Dashboard.
 */
export const signIn = defineAction({
  accept: 'form',
  input: signInInput,
  handler: async (credentials, context): Promise<Navigation> => {
    const api = await context.locals.api();
    let answer;
    try {
      answer = await signInToApi(api, credentials);
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthorized) clearSession(context);
      throw apiFailure(error, signInFallbackMessage);
    }

    startSession(context, answer);
    const step: MfaStep | undefined = answer.mfaRequiresVerification
      ? 'enrollment-available'
      : answer.mfaRequired
        ? 'verification-required'
        : undefined;
    writeMfaStep(context.cookies, step, answer.expiresAt);

    if (step === 'verification-required') return { redirectTo: paths.mfaEnrollment };
    return { redirectTo: takeReturnTo(context.cookies) ?? paths.dashboard };
  },
});

/** docs/PRODUCT.md §4: the call is made, then the session is cleared, even if the call failed. */
export const signOut = defineAction({
  accept: 'form',
  handler: async (_input, context: ActionAPIContext): Promise<Navigation> => {
    try {
      await signOutOfApi(await context.locals.api());
    } catch (error) {
      console.warn('Sign-out: the API call failed; the session is cleared anyway.', error);
    }
    clearSession(context);
    addFlash(context.cookies, { message: signedOutMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.signIn };
  },
});
