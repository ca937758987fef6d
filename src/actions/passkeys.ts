import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  passkeyAddedMessage,
  passkeyAddFallbackMessage,
  passkeyRemovedMessage,
  passkeyRemoveFallbackMessage,
  passkeySignInFallbackMessage,
  passkeyStepFallbackMessage,
} from '../lib/messages';
import { paths } from '../routes';
import { signInWithPasskey as signInWithPasskeyToApi } from '../server/api/sign-in';
import { ApiError } from '../server/api/client';
import {
  addPasskey as addPasskeyWithApi,
  passkeyRegistrationOptions,
  passkeySignInOptions as passkeySignInOptionsOfApi,
  passkeyStepOptions as passkeyStepOptionsOfApi,
  removePasskey as removePasskeyWithApi,
  verifyPasskey as verifyPasskeyWithApi,
  type CeremonyOptions,
} from '../server/api/passkeys';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { keepPasskeyChallenge, takePasskeyChallenge } from '../server/session/passkey-challenge';
import { takeReturnTo } from '../server/session/return-to';
import { clearSession, startSession, writeMfaStep, writeMfaToken } from '../server/session/session';
import { apiFailure } from './api-failure';
import type { NewRecoveryCodes } from './authenticator-app';
import {
  currentPasswordField,
  passkeyCredentialField,
  passkeyNameField,
  rememberDeviceField,
} from './fields';
import { afterMfaStep, checkCodeAndKeepToken } from './mfa';

/**
 * Passkeys: the options of each ceremony, from the API, handed to the island that runs it in the
 * browser, and the browser's answer handed back. Only the islands call the options actions: a
 * passkey needs JavaScript.
 */

/** The options of a ceremony, for the browser. */
interface PasskeyCeremony {
  readonly options: CeremonyOptions;
}

/** Options to make a passkey for the signed-in member (Sign-in and security). */
export const registrationOptions = defineAction({
  accept: 'form',
  handler: async (_input, context): Promise<PasskeyCeremony> => {
    try {
      return { options: await passkeyRegistrationOptions(await context.locals.api()) };
    } catch (error) {
      throw apiFailure(error, passkeyAddFallbackMessage);
    }
  },
});

/**
 * Keeps the passkey the browser made, under the member's name for it; as with an app, this
 * session's mfa token is renewed, and a first set of recovery codes is answered to be saved.
 */
export const addPasskey = defineAction({
  accept: 'form',
  input: z.object({ name: passkeyNameField, credential: passkeyCredentialField }),
  handler: async ({ name, credential }, context): Promise<Navigation | NewRecoveryCodes> => {
    const { recoveryCodes } = await checkCodeAndKeepToken(
      context,
      (api) => addPasskeyWithApi(api, name, credential),
      passkeyAddFallbackMessage,
    );
    // With codes to save, the page that shows them says it in words of its own.
    if (recoveryCodes) return { recoveryCodes };
    addFlash(context.cookies, { message: passkeyAddedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.accountSecurity };
  },
});

/** Removes one passkey with the current password, by the rules of every factor. */
export const removePasskey = defineAction({
  accept: 'form',
  input: z.object({
    passkey_id: z.string().max(64),
    current_password: currentPasswordField,
  }),
  handler: async ({ passkey_id, current_password }, context): Promise<Navigation> => {
    try {
      await removePasskeyWithApi(await context.locals.api(), passkey_id, current_password);
    } catch (error) {
      throw apiFailure(error, passkeyRemoveFallbackMessage, {
        'user.current_password': 'current_password',
      });
    }
    addFlash(context.cookies, {
      message: passkeyRemovedMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountSecurity };
  },
});

/** Options for the MFA step taken with one of the member's passkeys. */
export const stepOptions = defineAction({
  accept: 'form',
  handler: async (_input, context): Promise<PasskeyCeremony> => {
    try {
      return { options: await passkeyStepOptionsOfApi(await context.locals.api()) };
    } catch (error) {
      throw apiFailure(error, passkeyStepFallbackMessage);
    }
  },
});

/** The MFA step taken with a passkey; "Remember this device" as with every way. */
export const verifyPasskey = defineAction({
  accept: 'form',
  input: z.object({ credential: passkeyCredentialField, remember_device: rememberDeviceField }),
  handler: async ({ credential, remember_device }, context): Promise<Navigation> => {
    await checkCodeAndKeepToken(
      context,
      (api) => verifyPasskeyWithApi(api, credential, remember_device),
      passkeyStepFallbackMessage,
    );
    return afterMfaStep(context);
  },
});

/**
 * Options for a sign-in with a passkey alone; the token that binds their challenge to this
 * browser stays here, in an httpOnly cookie.
 */
export const signInOptions = defineAction({
  accept: 'form',
  handler: async (_input, context): Promise<PasskeyCeremony> => {
    try {
      const { options, challengeToken } = await passkeySignInOptionsOfApi(
        await context.locals.api(),
      );
      keepPasskeyChallenge(context.cookies, challengeToken);
      return { options };
    } catch (error) {
      throw apiFailure(error, passkeySignInFallbackMessage);
    }
  },
});

/**
 * A passkey verified by its device's lock signs in with both steps done; on to the remembered page,
 * or the Dashboard.
 */
export const signInWithPasskey = defineAction({
  accept: 'form',
  input: z.object({ credential: passkeyCredentialField }),
  handler: async ({ credential }, context): Promise<Navigation> => {
    const challengeToken = takePasskeyChallenge(context.cookies) ?? '';
    let answer;
    try {
      answer = await signInWithPasskeyToApi(await context.locals.api(), challengeToken, credential);
    } catch (error) {
      if (error instanceof ApiError && error.isUnauthorized) clearSession(context);
      throw apiFailure(error, passkeySignInFallbackMessage);
    }
    startSession(context, answer);
    if (answer.mfaToken) writeMfaToken(context, answer.mfaToken, answer.expiresAt);
    writeMfaStep(context.cookies, undefined, answer.expiresAt);
    return { redirectTo: takeReturnTo(context.cookies) ?? paths.dashboard };
  },
});
