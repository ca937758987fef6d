import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { ONE_TIME_CODE_RESEND_INTERVAL_MS } from '../../services/factors/one-time-codes.ts';
import { sendMfaCode, setPendingMfaPhone } from '../../services/factors/phone.ts';
import {
  INVALID_US_PHONE_NUMBER,
  normaliseUsPhoneNumber,
  phoneLastDigits,
} from '../../services/factors/phone-numbers.ts';
import { CODES_PAUSED_MESSAGE } from '../../services/factors/step.ts';
import {
  MFA_PHONE_REMOVAL_PER_IP,
  MFA_PHONE_REMOVAL_PER_USER,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { currentPasswordBody, mayAddFactor, removeFactor } from './factor-changes.ts';

const enrollBody = z.object({ mfa_number: z.string().max(64) });

/** The answers of the phone's routes that are not errors. */
const PhoneMessage = {
  numberSaved: (lastDigits: string) =>
    `We will text a code to the phone number ending ${lastDigits}.`,
  codeSent: (lastDigits: string) => `We have sent a code to the phone number ending ${lastDigits}.`,
} as const;

/**
 * The phone as a factor, at /api/v1/mfa: the number to confirm, a code texted (to confirm it or
 * for the step), and the phone removed.
 */
export function createPhoneRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies } = dependencies;
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  return new Hono<ApiEnv>()
    .post('/', session, mayAddFactor(dependencies), jsonBody(enrollBody), async (c) => {
      const user = c.get('user');
      const phone = normaliseUsPhoneNumber(c.req.valid('json').mfa_number);
      if (phone === null) return errorResponse(c, 422, INVALID_US_PHONE_NUMBER, 'mfa_number');
      await setPendingMfaPhone(db, clock, user.id, phone);
      const lastDigits = phoneLastDigits(phone);
      return c.json({
        message: PhoneMessage.numberSaved(lastDigits),
        phone_last_digits: lastDigits,
      });
    })
    .post('/send-otp', session, async (c) => {
      const result = await sendMfaCode(db, clock, {
        userId: c.get('user').id,
        sessionId: c.get('session').id,
        mfaVerified: c.get('mfaVerified'),
      });
      if (result.sent) {
        const lastDigits = phoneLastDigits(result.phone);
        return c.json({
          message: PhoneMessage.codeSent(lastDigits),
          phone_last_digits: lastDigits,
          resend_after_seconds: ONE_TIME_CODE_RESEND_INTERVAL_MS / 1000,
        });
      }
      if (result.reason === 'no_phone') return errorResponse(c, 422, ErrorMessage.noPhoneForCode);
      // Not a rate limit: no wait lifts it, only a password reset or an unlock link.
      if (result.reason === 'codes_paused') return errorResponse(c, 403, CODES_PAUSED_MESSAGE);
      c.header('Retry-After', String(result.retryAfterSeconds));
      return errorResponse(
        c,
        429,
        result.reason === 'too_soon'
          ? ErrorMessage.codeResendTooSoon
          : ErrorMessage.codeHourlyLimit,
      );
    })
    .delete(
      '/phone',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_PHONE_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_PHONE_REMOVAL_PER_USER),
      (c) =>
        removeFactor(dependencies, c, { factor: 'sms' }, c.req.valid('json').user.current_password),
    );
}
