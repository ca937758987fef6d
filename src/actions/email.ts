import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  confirmationLinkSentMessage,
  emailChangedMessage,
  emailChangeFallbackMessage,
  emailChangeRequestedMessage,
  emailConfirmationFallbackMessage,
  emailConfirmedMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  changeEmail as changeWithApi,
  confirmEmail as confirmWithApi,
  resendConfirmation as resendWithApi,
} from '../server/api/email';
import { ApiError } from '../server/api/client';
import { addFlash } from '../server/session/flash';
import { isAuthenticated, readSession } from '../server/session/session';
import type { Navigation } from '../server/forms/navigation';
import { apiFailure } from './api-failure';
import { currentPasswordField, emailField, tokenField } from './fields';
import type { Notice } from './password';

/**
 * Follows the emailed link with the press of the page's one button, so that a mail scanner opening
 * the link spends nothing. Success goes to the Dashboard when signed in, to SignIn otherwise, with
 * a toast.
 */
export const confirmEmail = defineAction({
  accept: 'form',
  input: z.object({ token: tokenField }),
  handler: async ({ token }, context): Promise<Navigation> => {
    let answer: { email: string; changed: boolean };
    try {
      answer = await confirmWithApi(await context.locals.api(), token);
    } catch (error) {
      throw apiFailure(error, emailConfirmationFallbackMessage);
    }
    addFlash(context.cookies, {
      message: answer.changed ? emailChangedMessage(answer.email) : emailConfirmedMessage,
      type: 'success',
      autoDismiss: true,
    });
    const signedIn = isAuthenticated(readSession(context.cookies));
    return { redirectTo: signedIn ? paths.dashboard : paths.signIn };
  },
});

/**
 * The banner's "Send the link again": a new link to the signed-in member's own address, the session
 * saying whose. Back to the page it was pressed on, with a toast.
 */
export const resendConfirmation = defineAction({
  accept: 'form',
  input: z.object({ email: z.string().max(254).optional() }),
  handler: async (_input, context): Promise<Navigation> => {
    let email: string;
    try {
      email = await resendWithApi(await context.locals.api());
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthorized) return { redirectTo: paths.dashboard };
      throw apiFailure(error, emailConfirmationFallbackMessage);
    }
    addFlash(context.cookies, {
      message: confirmationLinkSentMessage(email),
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.dashboard };
  },
});

/**
 * Asks to change the address, proved with the current password. The answer is the same whether or
 * not another account uses the new address.
 */
export const changeEmail = defineAction({
  accept: 'form',
  input: z.object({
    email: emailField,
    current_password: currentPasswordField,
  }),
  handler: async (form, context): Promise<Notice> => {
    try {
      await changeWithApi(await context.locals.api(), {
        currentPassword: form.current_password,
        email: form.email,
      });
    } catch (error) {
      throw apiFailure(error, emailChangeFallbackMessage, {
        'user.current_password': 'current_password',
        'user.email': 'email',
      });
    }
    return { notice: emailChangeRequestedMessage(form.email) };
  },
});
