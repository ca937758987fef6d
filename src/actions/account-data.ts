import { defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import {
  accountDeletionFallbackMessage,
  accountDeletionPhrase,
  accountDeletionPhraseMessage,
} from '../lib/messages';
import { monitoring } from '../../platform/monitoring.ts';
import { paths } from '../routes';
import { deleteAccount as deleteWithApi } from '../server/api/account-data';
import { ApiError } from '../server/api/client';
import type { Navigation } from '../server/forms/navigation';
import { clearSession } from '../server/session/session';
import { apiFailure } from './api-failure';
import { currentPasswordField, formText } from './fields';

/**
 * The member deletes the account with the current password and the typed words "delete my account"
 * (any case, spaces around them forgiven), which keep a stray press from ever deleting it. A wrong
 * password is refused under its field and counts toward the lockout; a 401 (the session ended) goes
 * back to the page, whose own call sends the member to SignIn. Once deleted, the browser's data for
 * the site is cleared as at sign-out, and AccountDeleted leaves the toast for SignIn.
 */
export const deleteAccount = defineAction({
  accept: 'form',
  input: z.object({
    current_password: currentPasswordField,
    confirmation: formText(
      z
        .string()
        .max(100, accountDeletionPhraseMessage)
        .refine(
          (typed) => typed.trim().replace(/\s+/g, ' ').toLowerCase() === accountDeletionPhrase,
          accountDeletionPhraseMessage,
        ),
      accountDeletionPhraseMessage,
    ),
  }),
  handler: async (form, context: ActionAPIContext): Promise<Navigation> => {
    try {
      await deleteWithApi(await context.locals.api(), form.current_password);
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthorized) {
        return { redirectTo: paths.accountData };
      }
      throw apiFailure(error, accountDeletionFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    clearSession(context);
    context.locals.signedOut = 'account-deleted';
    monitoring.identify(undefined);
    return { redirectTo: paths.accountDeleted };
  },
});
