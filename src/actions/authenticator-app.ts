import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  appAddedMessage,
  appRemovedMessage,
  appRemoveFallbackMessage,
  appSetupFallbackMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  confirmApp as confirmAppWithApi,
  removeApp as removeAppWithApi,
  startAppSetup,
  type AppSetup,
} from '../server/api/mfa';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { apiFailure } from './api-failure';
import { currentPasswordField, oneTimeCodeField } from './fields';
import { checkCodeAndKeepToken } from './mfa';

/**
 * The authenticator app, from the Account area (docs/PRODUCT.md §11.2): set one up (a secret the
 * page shows as a QR code), confirm it with its first code, remove it. The API emails the member
 * each change.
 */

/**
 * A new secret for the app. Answered to the page that posted (no redirect), which draws its QR
 * code: the secret is shown once, never kept by the portal.
 */
export const setUpApp = defineAction({
  accept: 'form',
  handler: async (_input, context): Promise<AppSetup> => {
    try {
      return await startAppSetup(await context.locals.api());
    } catch (error) {
      throw apiFailure(error, appSetupFallbackMessage);
    }
  },
});

/**
 * The app's first code makes it the member's app; the API renews this session's mfa token, kept
 * as at the MFA step. Back to AccountSecurity with a toast.
 */
export const confirmApp = defineAction({
  accept: 'form',
  // `setup_uri` only comes back so that a refused post without JavaScript can show the setup again.
  input: z.object({ code: oneTimeCodeField, setup_uri: z.string().max(2048).optional() }),
  handler: async ({ code }, context): Promise<Navigation> => {
    await checkCodeAndKeepToken(context, (api) => confirmAppWithApi(api, code));
    addFlash(context.cookies, { message: appAddedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.accountSecurity };
  },
});

/** Removes the app with the current password, where it is not the last factor a company needs. */
export const removeApp = defineAction({
  accept: 'form',
  input: z.object({ current_password: currentPasswordField }),
  handler: async ({ current_password }, context): Promise<Navigation> => {
    try {
      await removeAppWithApi(await context.locals.api(), current_password);
    } catch (error) {
      throw apiFailure(error, appRemoveFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    addFlash(context.cookies, { message: appRemovedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.accountSecurity };
  },
});
