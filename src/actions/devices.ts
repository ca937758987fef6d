import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import {
  deviceForgottenMessage,
  deviceSignedOutMessage,
  devicesFallbackMessage,
  forgetDeviceFallbackMessage,
  otherDevicesSignedOutMessage,
} from '../lib/messages';
import { paths } from '../routes';
import {
  endDeviceSession,
  endOtherDeviceSessions,
  forgetRememberedDevice,
} from '../server/api/devices';
import type { Navigation } from '../server/forms/navigation';
import { addFlash } from '../server/session/flash';
import { apiFailure } from './api-failure';
import { formText } from './fields';

/**
 * A session's or remembered device's id is only ever the API's, from a hidden field: a wrong one
 * is a broken page, not a typo.
 */
const sessionIdField = formText(
  z.string().trim().min(1, devicesFallbackMessage).max(64, devicesFallbackMessage),
  devicesFallbackMessage,
);

/**
 * Signs one of the member's devices out. A session that has already ended (in another tab, or by
 * its own sign-out) comes back as the API's sentence above the list, which no longer shows it; a
 * 401 (this session ended) goes to SignIn, as everywhere.
 */
export const endSession = defineAction({
  accept: 'form',
  input: z.object({ session_id: sessionIdField }),
  handler: async ({ session_id }, context): Promise<Navigation> => {
    try {
      await endDeviceSession(await context.locals.api(), session_id);
    } catch (error) {
      throw apiFailure(error, devicesFallbackMessage);
    }
    addFlash(context.cookies, {
      message: deviceSignedOutMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountDevices };
  },
});

/**
 * Forgets a remembered device, whose next sign-in takes the MFA step again. One forgotten already
 * comes back as the API's sentence above the list.
 */
export const forgetDevice = defineAction({
  accept: 'form',
  input: z.object({ device_id: sessionIdField }),
  handler: async ({ device_id }, context): Promise<Navigation> => {
    try {
      await forgetRememberedDevice(await context.locals.api(), device_id);
    } catch (error) {
      throw apiFailure(error, forgetDeviceFallbackMessage);
    }
    addFlash(context.cookies, {
      message: deviceForgottenMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountDevices };
  },
});

/** Signs every device but this one out. */
export const endOtherSessions = defineAction({
  accept: 'form',
  input: z.object({}),
  handler: async (_input, context): Promise<Navigation> => {
    try {
      await endOtherDeviceSessions(await context.locals.api());
    } catch (error) {
      throw apiFailure(error, devicesFallbackMessage);
    }
    addFlash(context.cookies, {
      message: otherDevicesSignedOutMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.accountDevices };
  },
});
