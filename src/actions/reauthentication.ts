import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { reauthenticatedMessage, reauthenticationFallbackMessage } from '../lib/messages';
import { paths } from '../routes';
import { reauthenticate } from '../server/api/mfa';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { apiFailure } from './api-failure';
import { currentPasswordField } from './fields';

/**
 * The password given again before adding a way to sign in, on the page that asked for it
 * (AccountSecurity or the enrollment offer). Back there with a toast; the page then shows what can
 * be added.
 */
export const confirmPassword = defineAction({
  accept: 'form',
  input: z.object({
    current_password: currentPasswordField,
    return_to: z.enum([paths.accountSecurity, paths.mfaEnrollment]).default(paths.accountSecurity),
  }),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await reauthenticate(await context.locals.api(), form.current_password);
    } catch (error) {
      throw apiFailure(error, reauthenticationFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    addFlash(context.cookies, { message: reauthenticatedMessage, type: 'success' });
    return { redirectTo: form.return_to };
  },
});
