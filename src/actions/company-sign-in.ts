import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { companySignInFallbackMessage, unsavableCharacterMessage } from '../lib/messages';
import { paths } from '../routes';
import {
  linkCompanySignIn,
  linkCompanySignInByCode,
  startCompanySignIn,
  type LinkMethod,
} from '../server/api/company-sign-in';
import type { Navigation } from '../server/forms/navigation';
import {
  forgetCompanySignIn,
  keepCompanySignIn,
  readCompanySignIn,
} from '../server/session/company-sign-in';
import { enterSessionAndGoOn } from '../server/session/signed-in';
import { apiFailure } from './api-failure';
import { tellRecoveryCodesLeft } from './recovery-codes-left';
import {
  currentPasswordField,
  isStorableText,
  oneTimeCodeField,
  recoveryCodeField,
} from './fields';
import { ErrorMessage } from '../../contract/error-messages.ts';

/**
 * "Continue with <company>" on the company's sign-up page: a sign-in with the company's provider,
 * which creates the member on their first visit. On to the page that sends the browser there.
 */
export const start = defineAction({
  accept: 'form',
  input: z.object({
    company_slug: z
      .string()
      .refine(isStorableText, unsavableCharacterMessage('The company in the address'))
      .trim()
      .min(1)
      .max(100),
  }),
  handler: async ({ company_slug: companySlug }, context): Promise<Navigation> => {
    let started;
    try {
      started = await startCompanySignIn(await context.locals.api(), { companySlug });
    } catch (error) {
      throw apiFailure(error, companySignInFallbackMessage);
    }
    if (!started) {
      throw new ActionError({ code: 'NOT_FOUND', message: ErrorMessage.unknownCompany });
    }
    keepCompanySignIn(context.cookies, started.token, started.expiresAt);
    return { redirectTo: paths.companySignIn };
  },
});

/**
 * The password of the account the company's provider named, which links the two: from then on the
 * provider signs the member in. A wrong password counts as a failed sign-in.
 */
export const link = defineAction({
  accept: 'form',
  input: z.object({ current_password: currentPasswordField }),
  handler: async ({ current_password: password }, context): Promise<Navigation> => {
    const token = readCompanySignIn(context.cookies) ?? '';
    let answer;
    try {
      answer = await linkCompanySignIn(await context.locals.api(), token, password);
    } catch (error) {
      throw apiFailure(error, companySignInFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    forgetCompanySignIn(context.cookies);
    return { redirectTo: enterSessionAndGoOn(context, answer) };
  },
});

/**
 * A code of the account's authenticator app links it, in place of the password, and signs in past
 * the step: the member has just proven a factor.
 */
export const linkByAppCode = defineAction({
  accept: 'form',
  input: z.object({ code: oneTimeCodeField }),
  handler: ({ code }, context): Promise<Navigation> => linkByCode(context, 'app', code),
});

/**
 * One of the account's recovery codes links it, once, as the app's code does. The next page says
 * how many are left, as after the step.
 */
export const linkByRecoveryCode = defineAction({
  accept: 'form',
  input: z.object({ code: recoveryCodeField }),
  handler: ({ code }, context): Promise<Navigation> => linkByCode(context, 'recovery_code', code),
});

async function linkByCode(
  context: ActionAPIContext,
  method: LinkMethod,
  code: string,
): Promise<Navigation> {
  const token = readCompanySignIn(context.cookies) ?? '';
  let linked;
  try {
    linked = await linkCompanySignInByCode(await context.locals.api(), token, method, code);
  } catch (error) {
    throw apiFailure(error, companySignInFallbackMessage, { otp: 'code' });
  }
  forgetCompanySignIn(context.cookies);
  const redirectTo = enterSessionAndGoOn(context, linked.answer);
  if (linked.recoveryCodesLeft !== undefined) {
    tellRecoveryCodesLeft(context.cookies, linked.recoveryCodesLeft);
  }
  return { redirectTo };
}
