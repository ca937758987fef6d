import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  passwordChangeFallbackMessage,
  passwordChangedMessage,
  passwordChangedWhileSignedInMessage,
  passwordResetFallbackMessage,
  resetLinkSentMessage,
  unsavableCharacterMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  changePassword as changeWithApi,
  requestPasswordReset as requestResetFromApi,
  resetPassword as resetWithApi,
} from '../server/api/passwords';
import { ApiError } from '../server/api/client';
import { addFlash } from '../server/session/flash';
import type { Navigation } from '../server/forms/navigation';
import { apiFailure } from './api-failure';
import { emailField, formText, tokenField, currentPasswordField } from './fields';
import { PASSWORD_MAX_LENGTH } from '../../contract/limits.ts';

/** What a form that only reports back answers with: a sentence for the visitor. */
export interface Notice {
  readonly notice: string;
}

/**
 * Asks for a reset link. The visitor reads the same sentence whether or not the address has an
 * account; the API decides whether a mail goes out.
 */
export const requestPasswordReset = defineAction({
  accept: 'form',
  input: z.object({ email: emailField }),
  handler: async ({ email }, context): Promise<Notice> => {
    try {
      const sentence = await requestResetFromApi(await context.locals.api(), email);
      return { notice: sentence ?? resetLinkSentMessage };
    } catch (error) {
      throw apiFailure(error, passwordResetFallbackMessage);
    }
  },
});

const newPassword = formText(
  z
    .string()
    .min(1, 'Enter a new password')
    .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`),
  unsavableCharacterMessage('New password'),
);

/**
 * Sets the new password with the token of the emailed link. The API's `status.message` says what is
 * wrong; one about the password is shown under that field. Success goes to SignIn with a toast: the
 * API has ended every session of the member.
 */
export const resetPassword = defineAction({
  accept: 'form',
  input: z
    .object({
      token: tokenField,
      password: newPassword,
      password_confirmation: formText(
        z.string().min(1, 'Confirm your new password'),
        unsavableCharacterMessage('Confirm new password'),
      ),
    })
    .refine((form) => form.password === form.password_confirmation, {
      path: ['password_confirmation'],
      message: 'The passwords do not match',
    }),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await resetWithApi(await context.locals.api(), {
        token: form.token,
        password: form.password,
        passwordConfirmation: form.password_confirmation,
      });
    } catch (error) {
      throw apiFailure(error, passwordResetFallbackMessage, {
        password: 'password',
        password_confirmation: 'password_confirmation',
      });
    }
    addFlash(context.cookies, {
      message: passwordChangedMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.signIn };
  },
});

/**
 * A signed-in member changes the password, proving it is them with the current one. The API's
 * refusal names its field (a wrong current password, a new one the policy refuses), shown under it;
 * a 401 (the session ended, e.g. at the lock the wrong current passwords set) goes to SignIn, as
 * everywhere. Success comes back to the page with a toast: this session stays, every other one has
 * ended.
 */
export const changePassword = defineAction({
  accept: 'form',
  input: z.object({
    current_password: currentPasswordField,
    password: newPassword,
  }),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await changeWithApi(await context.locals.api(), {
        currentPassword: form.current_password,
        password: form.password,
      });
    } catch (error) {
      // The session ended (on another device, or at the lock the wrong current passwords set):
      // back to this page, whose own call of the API meets the same 401 and sends the member to
      // SignIn (or the MFA step) with this page remembered, island call or native post alike.
      if (error instanceof ApiError && error.isUnauthorized) {
        return { redirectTo: paths.accountSecurity };
      }
      throw apiFailure(error, passwordChangeFallbackMessage, {
        'user.current_password': 'current_password',
        'user.password': 'password',
      });
    }
    addFlash(context.cookies, {
      message: passwordChangedWhileSignedInMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountSecurity };
  },
});
