import { ActionError, defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  mfaEnrollFallbackMessage,
  mfaVerifyFallbackMessage,
  noMfaTokenMessage,
  twoStepPhoneConfirmedMessage,
  twoStepTurnedOffMessage,
  twoStepTurnOffFallbackMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  enrollPhone,
  fetchMfaStatus,
  turnOffTwoStep as turnOffWithApi,
  verifyCode,
  type CodeSent,
} from '../server/api/mfa';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { writeMfaToken } from '../server/session/session';
import { apiFailure } from './api-failure';
import { currentPasswordField, oneTimeCodeField, usMobileNumberField } from './fields';
import { textCode } from './mfa';

/**
 * The phone of two-step verification, from the Account area (docs/PRODUCT.md §11.2): add one
 * after declining the offer, replace it, or turn the step off. A new number replaces the old one
 * only once the code texted to it is entered; the API emails the member each change.
 */

/** Keeps the new number as pending and texts a code to it; the member enters the code next. */
export const addPhone = defineAction({
  accept: 'form',
  input: z.object({ phone: usMobileNumberField }),
  handler: async ({ phone }, context): Promise<CodeSent> => {
    const api = await context.locals.api();
    try {
      await enrollPhone(api, phone);
    } catch (error) {
      throw apiFailure(error, mfaEnrollFallbackMessage, { mfa_number: 'phone' });
    }
    return textCode(context);
  },
});

/**
 * The code texted to the new number makes it the phone of the codes. The API re-verifies this
 * session with a new mfa token (the old one no longer counts), kept as at the MFA step. Back to
 * AccountSecurity with a toast naming the number's last digits.
 */
export const confirmPhone = defineAction({
  accept: 'form',
  input: z.object({ code: oneTimeCodeField }),
  handler: async ({ code }, context): Promise<Navigation> => {
    const api = await context.locals.api();
    let token: string | undefined;
    let lastDigits: string | undefined;
    try {
      // Asked first: once the code is spent, this request's mfa token is no longer the session's.
      lastDigits = (await fetchMfaStatus(api)).phoneLastDigits;
      token = await verifyCode(api, code);
    } catch (error) {
      throw apiFailure(error, mfaVerifyFallbackMessage, { otp: 'code' });
    }
    const { expiresAt } = context.locals.session;
    if (!token || !expiresAt) {
      throw new ActionError({ code: 'UNPROCESSABLE_CONTENT', message: noMfaTokenMessage });
    }
    writeMfaToken(context.cookies, token, expiresAt);
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
