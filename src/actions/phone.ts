import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  mfaVerifyFallbackMessage,
  phoneRemovedMessage,
  phoneRemoveFallbackMessage,
  twoStepPhoneConfirmedMessage,
  twoStepTurnedOffMessage,
  twoStepTurnOffFallbackMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  fetchMfaStatus,
  removePhone as removePhoneWithApi,
  turnOffTwoStep as turnOffWithApi,
  verifyCode,
} from '../server/api/mfa';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { apiFailure } from './api-failure';
import { currentPasswordField, oneTimeCodeField } from './fields';
import { checkCodeAndKeepToken } from './mfa';

/**
 * The phone of two-step verification, from the Account area: add one after declining the offer,
 * replace it, or turn the step off. The number is given with `mfa.enroll`, as at sign-in; it
 * replaces the old one only once the code texted to it is entered here. The API emails the member
 * each change.
 */

/**
 * The code texted to the new number makes it the phone of the codes. The API re-verifies this
 * session with a new mfa token (the old one no longer counts), kept as at the MFA step. Back to
 * AccountSecurity with a toast naming the number's last digits.
 */
export const confirmPhone = defineAction({
  accept: 'form',
  input: z.object({ code: oneTimeCodeField }),
  handler: async ({ code }, context): Promise<Navigation> => {
    let lastDigits: string | undefined;
    try {
      // Asked first: once the code is spent, this request's mfa token is no longer the session's.
      lastDigits = (await fetchMfaStatus(await context.locals.api())).phoneLastDigits;
    } catch (error) {
      throw apiFailure(error, mfaVerifyFallbackMessage);
    }
    await checkCodeAndKeepToken(context, (api) => verifyCode(api, code));
    if (lastDigits) {
      addFlash(context.cookies, {
        message: twoStepPhoneConfirmedMessage(lastDigits),
        type: 'success',
        autoDismiss: true,
      });
    }
    return { redirectTo: paths.accountSecurity };
  },
});

/** Removes the phone with the current password, where another factor stays or none is needed. */
export const removePhone = defineAction({
  accept: 'form',
  input: z.object({ current_password: currentPasswordField }),
  handler: async ({ current_password }, context): Promise<Navigation> => {
    try {
      await removePhoneWithApi(await context.locals.api(), current_password);
    } catch (error) {
      throw apiFailure(error, phoneRemoveFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    addFlash(context.cookies, { message: phoneRemovedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.accountSecurity };
  },
});

/** Turns two-step verification off with the current password, where the company allows it. */
export const turnOffTwoStep = defineAction({
  accept: 'form',
  input: z.object({ current_password: currentPasswordField }),
  handler: async ({ current_password }, context): Promise<Navigation> => {
    try {
      await turnOffWithApi(await context.locals.api(), current_password);
    } catch (error) {
      throw apiFailure(error, twoStepTurnOffFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    addFlash(context.cookies, {
      message: twoStepTurnedOffMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountSecurity };
  },
});
