import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import {
  mfaEnrollFallbackMessage,
  mfaSendCodeFallbackMessage,
  mfaVerifyFallbackMessage,
  noMfaTokenMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  enrollPhone,
  sendCode,
  skipEnrollment,
  verifyCode,
  type CodeSent,
  type StepPassed,
} from '../server/api/mfa';
import type { ApiClient } from '../server/api/client';
import type { Navigation } from '../server/forms/navigation';
import { tellRecoveryCodesLeft } from './recovery-codes-left';
import { isOnboarding } from '../server/session/onboarding';
import { rememberDevice } from '../server/session/remembered-device';
import { takeReturnTo } from '../server/session/return-to';
import { writeMfaStep, writeMfaToken } from '../server/session/session';
import { apiFailure } from './api-failure';
import {
  oneTimeCodeField,
  recoveryCodeField,
  rememberDeviceField,
  usMobileNumberField,
} from './fields';

/** Where a member goes once the MFA step is settled: the welcome pages after sign-up, else on. */
export function afterMfaStep(context: ActionAPIContext): Navigation {
  const { expiresAt } = context.locals.session;
  if (expiresAt) writeMfaStep(context.cookies, undefined, expiresAt);
  if (isOnboarding(context.cookies)) return { redirectTo: paths.aboutUs };
  return { redirectTo: takeReturnTo(context.cookies) ?? paths.dashboard };
}

/**
 * Enrollment stores the number, then texts a code to it; the member enters the code next.
 */
export const enroll = defineAction({
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

/** Texts a (new) code to the enrolled or pending phone. */
export const requestCode = defineAction({
  accept: 'form',
  handler: (_input, context): Promise<CodeSent> => textCode(context),
});

async function textCode(context: ActionAPIContext): Promise<CodeSent> {
  try {
    return await sendCode(await context.locals.api());
  } catch (error) {
    throw apiFailure(error, mfaSendCodeFallbackMessage);
  }
}

/**
 * Checks the code with the API; the mfa token it answers with is kept in an httpOnly cookie and
 * sent with every later call. No token in the answer is a failure. For the MFA step and for a phone
 * confirmed from the Account area alike.
 */
export async function checkCodeAndKeepToken(
  context: ActionAPIContext,
  check: (api: ApiClient) => Promise<StepPassed>,
  fallbackMessage: string = mfaVerifyFallbackMessage,
): Promise<StepPassed> {
  let passed: StepPassed;
  try {
    passed = await check(await context.locals.api());
  } catch (error) {
    throw apiFailure(error, fallbackMessage, { otp: 'code', name: 'name' });
  }
  const { expiresAt } = context.locals.session;
  if (!passed.mfaToken || !expiresAt) {
    throw new ActionError({ code: 'UNPROCESSABLE_CONTENT', message: noMfaTokenMessage });
  }
  writeMfaToken(context, passed.mfaToken, expiresAt);
  if (passed.rememberedDevice) {
    rememberDevice(
      context.cookies,
      passed.rememberedDevice.token,
      passed.rememberedDevice.expiresAt,
    );
  }
  return passed;
}

/**
 * A code that checks out completes the step: a texted one, or one of the authenticator app
 * (`method` "app").
 */
export const verify = defineAction({
  accept: 'form',
  input: z.object({
    code: oneTimeCodeField,
    method: z.enum(['sms', 'app']).default('sms'),
    remember_device: rememberDeviceField,
  }),
  handler: async ({ code, method, remember_device }, context): Promise<Navigation> => {
    await checkCodeAndKeepToken(context, (api) => verifyCode(api, code, method, remember_device));
    return afterMfaStep(context);
  },
});

/**
 * One of the member's recovery codes completes the step, once. The next page says how many are
 * left, and asks for new ones when few are.
 */
export const verifyRecoveryCode = defineAction({
  accept: 'form',
  input: z.object({ code: recoveryCodeField, remember_device: rememberDeviceField }),
  handler: async ({ code, remember_device }, context): Promise<Navigation> => {
    const passed = await checkCodeAndKeepToken(context, (api) =>
      verifyCode(api, code, 'recovery_code', remember_device),
    );
    if (passed.recoveryCodesLeft !== undefined) {
      tellRecoveryCodesLeft(context.cookies, passed.recoveryCodesLeft);
    }
    return afterMfaStep(context);
  },
});

/** "Skip for now" records the decline, refused where MFA is required. */
export const skip = defineAction({
  accept: 'form',
  handler: async (_input, context): Promise<Navigation> => {
    try {
      await skipEnrollment(await context.locals.api());
    } catch (error) {
      throw apiFailure(error, mfaEnrollFallbackMessage);
    }
    return afterMfaStep(context);
  },
});
