import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  accountUnlockedMessage,
  unlockFallbackMessage,
  unlockLinkSentMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  requestUnlockLink as requestLinkFromApi,
  unlockAccount as unlockWithApi,
} from '../server/api/unlock';
import { addFlash } from '../server/session/flash';
import type { Navigation } from '../server/forms/navigation';
import { apiFailure } from './api-failure';
import { emailField, tokenField } from './fields';
import type { Notice } from './password';

/**
 * Unlocks the account with the token of the emailed link. The page asks for a press of its button
 * first, so that mail scanners that open links do not spend the token. Success goes to SignIn with
 * a toast.
 */
export const unlockAccount = defineAction({
  accept: 'form',
  input: z.object({ token: tokenField }),
  handler: async ({ token }, context): Promise<Navigation> => {
    try {
      await unlockWithApi(await context.locals.api(), token);
    } catch (error) {
      throw apiFailure(error, unlockFallbackMessage);
    }
    addFlash(context.cookies, {
      message: accountUnlockedMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.signIn };
  },
});

/**
 * Asks for a new unlock link. The same sentence whether or not the address has an account, or a
 * lock.
 */
export const requestUnlockLink = defineAction({
  accept: 'form',
  input: z.object({ email: emailField }),
  handler: async ({ email }, context): Promise<Notice> => {
    try {
      const sentence = await requestLinkFromApi(await context.locals.api(), email);
      return { notice: sentence ?? unlockLinkSentMessage };
    } catch (error) {
      throw apiFailure(error, unlockFallbackMessage);
    }
  },
});
