import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  appAddedMessage,
  appRemovedMessage,
  appRemoveFallbackMessage,
  appSetupFallbackMessage,
  recoveryCodesFallbackMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  confirmApp as confirmAppWithApi,
  removeApp as removeAppWithApi,
  renewRecoveryCodes as renewRecoveryCodesWithApi,
  startAppSetup,
  type AppSetup,
} from '../server/api/mfa';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { apiFailure } from './api-failure';
import { currentPasswordField, oneTimeCodeField } from './fields';
import { checkCodeAndKeepToken } from './mfa';

/**
 * The authenticator app and the recovery codes, from the Account area: set an app up (a secret the
 * page shows as a QR code), confirm it with its first code, remove it; make new recovery codes. The
 * API emails the member each change.
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

/** Recovery codes to show once, on the page that made them. */
export interface NewRecoveryCodes {
  readonly recoveryCodes: readonly string[];
}

/**
 * The app's first code makes it the member's app; the API renews this session's mfa token, kept
 * as at the MFA step. Back to AccountSecurity with a toast; when the app is the member's first
 * strong factor, the recovery codes it came with are answered to the page first, to be saved.
 */
export const confirmApp = defineAction({
  accept: 'form',
  // `setup_uri` only comes back so that a refused post without JavaScript can show the setup again.
  input: z.object({ code: oneTimeCodeField, setup_uri: z.string().max(2048).optional() }),
  handler: async ({ code }, context): Promise<Navigation | NewRecoveryCodes> => {
    const { recoveryCodes } = await checkCodeAndKeepToken(context, (api) =>
      confirmAppWithApi(api, code),
    );
    // With codes to save, the page that shows them says it in words of its own.
    if (recoveryCodes) return { recoveryCodes };
    addFlash(context.cookies, { message: appAddedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.accountSecurity };
  },
});

/** Ten new recovery codes, proved with the current password, answered to the page to be saved. */
export const renewRecoveryCodes = defineAction({
  accept: 'form',
  input: z.object({ current_password: currentPasswordField }),
  handler: async ({ current_password }, context): Promise<NewRecoveryCodes> => {
    try {
      return {
        recoveryCodes: await renewRecoveryCodesWithApi(
          await context.locals.api(),
          current_password,
        ),
      };
    } catch (error) {
      throw apiFailure(error, recoveryCodesFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
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
