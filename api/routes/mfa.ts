import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { requireSession } from '../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../http/errors.ts';
import { rateLimit, rateLimitPerUser, tooManyRequests } from '../http/rate-limit.ts';
import { jsonBody, passwordInput } from '../http/validation.ts';
import {
  CODES_PAUSED_MESSAGE,
  type CodeRefusal,
  type CompletedStep,
  type MfaRequestContext,
} from '../services/factors/step.ts';
import { declineMfaEnrollment } from '../services/factors/offer.ts';
import { hasEnrolledMfa } from '../services/factors/member-factors.ts';
import { mfaStatus, turnOffMfa } from '../services/factors/two-step-verification.ts';
import { removeSecondFactor, type FactorToRemove } from '../services/factors/factor-removal.ts';
import { renewRecoveryCodes, verifyRecoveryCode } from '../services/factors/recovery-codes.ts';
import { sendMfaCode, setPendingMfaPhone, verifyMfaCode } from '../services/factors/phone.ts';
import { ONE_TIME_CODE_RESEND_INTERVAL_MS } from '../services/factors/one-time-codes.ts';
import {
  INVALID_US_PHONE_NUMBER,
  normaliseUsPhoneNumber,
  phoneLastDigits,
} from '../services/factors/phone-numbers.ts';
import { confirmApp, startAppSetup, verifyAppCode } from '../services/factors/authenticator-app.ts';
import { PRODUCT_NAME } from '../services/messages/account-emails.ts';
import { PASSKEY_NAME_MAX_LENGTH } from '../services/factors/passkey-store.ts';
import {
  addPasskey,
  listPasskeys,
  registrationOptions,
  relyingParty,
  secondStepOptions,
  verifyPasskeyStep,
} from '../services/factors/passkeys.ts';
import { authenticationCredential, registrationCredential } from '../http/webauthn-input.ts';
import {
  MFA_APP_REMOVAL_PER_IP,
  MFA_APP_REMOVAL_PER_USER,
  MFA_APP_SETUP_PER_USER,
  MFA_PASSKEY_OPTIONS_PER_USER,
  MFA_PASSKEY_REMOVAL_PER_IP,
  MFA_PASSKEY_REMOVAL_PER_USER,
  MFA_PHONE_REMOVAL_PER_IP,
  MFA_PHONE_REMOVAL_PER_USER,
  MFA_RECOVERY_CODES_PER_IP,
  MFA_RECOVERY_CODES_PER_USER,
  MFA_TURN_OFF_PER_IP,
  MFA_TURN_OFF_PER_USER,
  MFA_VERIFY_PER_USER,
} from '../services/rate-limits.ts';
import { countUnusedRecoveryCodes } from '../services/factors/recovery-code-store.ts';
import { isRecentlyProven } from '../services/sign-in/recent-proof.ts';
import { MFA_TOKEN_HEADER } from '../../contract/headers.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const enrollBody = z.object({ mfa_number: z.string().max(64) });
/** Skip the step on this browser for 30 days once it succeeds ("Remember this device"). */
const rememberDevice = z.boolean().optional();
const verifyBody = z.object({
  otp: z.string().max(64),
  /**
   * Where the code comes from: a text (the default), the authenticator app, or the member's
   * recovery codes.
   */
  method: z.enum(['sms', 'app', 'recovery_code']).optional(),
  remember_device: rememberDevice,
});
const appCodeBody = z.object({ otp: z.string().max(64), remember_device: rememberDevice });
/** The name is checked after trimming, under its field, with the sentences of the catalogue. */
const addPasskeyBody = z.object({
  name: z.string().max(1000),
  credential: registrationCredential,
  remember_device: rememberDevice,
});
const passkeyStepBody = z.object({
  credential: authenticationCredential,
  remember_device: rememberDevice,
});
const currentPasswordBody = z.object({
  user: z.object({ current_password: passwordInput }),
});

/** The answers of the MFA routes that are not errors. */
export const MfaMessage = {
  numberSaved: (lastDigits: string) =>
    `We will text a code to the phone number ending ${lastDigits}.`,
  codeSent: (lastDigits: string) => `We have sent a code to the phone number ending ${lastDigits}.`,
} as const;

/**
 * MFA by text message: /api/v1/mfa (docs/PRODUCT.md §7.1, §7.2, §12). Every route needs a
 * session and works before MFA is complete (that is what they complete).
 */
export function createMfaRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, factorSecrets } = dependencies;
  const party = relyingParty(publicOrigin, PRODUCT_NAME);
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  /**
   * Adding or changing a factor, checked before the body is read. Once the member has one, only a
   * session that proved it may, or a stolen password would be enough to move the second step to
   * the thief's phone, app or passkey; and only a session proven lately, or a stolen session alone
   * would be enough to add the thief's own (docs/PRODUCT.md §11.2).
   */
  const mayAddFactor: MiddlewareHandler<ApiEnv> = async (c, next) => {
    if (hasEnrolledMfa(c.get('user')) && !c.get('mfaVerified')) {
      return errorResponse(c, 401, ErrorMessage.mfaRequired);
    }
    if (!isRecentlyProven(c.get('session'), clock.now())) {
      return errorResponse(c, 403, ErrorMessage.recentPasswordRequired);
    }
    await next();
    return undefined;
  };

  /** DELETE /mfa/app, /mfa/phone and /mfa/passkeys/:id: one factor removed, by the same rules. */
  async function removeFactor(c: Context<ApiEnv>, target: FactorToRemove, currentPassword: string) {
    const result = await removeSecondFactor(db, clock, c.get('user'), target, {
      currentPassword,
      companyRequiresMfa: c.get('companyRequiresMfa'),
      publicOrigin,
      origin: requestOrigin(c, trustedProxies),
    });
    if (result.removed) return c.body(null, 204);
    switch (result.reason) {
      case 'wrong_current_password':
        return wrongCurrentPasswordResponse(c);
      case 'not_enrolled':
        return target.factor === 'passkey'
          ? errorResponse(c, 404, ErrorMessage.passkeyNotFound)
          : errorResponse(
              c,
              422,
              target.factor === 'app' ? ErrorMessage.noAppToRemove : ErrorMessage.noPhoneToRemove,
            );
      case 'last_factor_required':
        return errorResponse(c, 403, ErrorMessage.lastFactorRequired);
    }
  }

  return new Hono<ApiEnv>()
    .get('/', session, async (c) => {
      const user = c.get('user');
      const recoveryCodesLeft = await countUnusedRecoveryCodes(db, user.id);
      return c.json(
        mfaStatus(user, c.get('companyRequiresMfa'), c.get('mfaVerified'), recoveryCodesLeft, {
          recentlyProven: isRecentlyProven(c.get('session'), clock.now()),
        }),
      );
    })
    .post('/', session, mayAddFactor, jsonBody(enrollBody), async (c) => {
      const user = c.get('user');
      const phone = normaliseUsPhoneNumber(c.req.valid('json').mfa_number);
      if (phone === null) return errorResponse(c, 422, INVALID_US_PHONE_NUMBER, 'mfa_number');
      await setPendingMfaPhone(db, clock, user.id, phone);
      const lastDigits = phoneLastDigits(phone);
      return c.json({ message: MfaMessage.numberSaved(lastDigits), phone_last_digits: lastDigits });
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
          message: MfaMessage.codeSent(lastDigits),
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
    .post('/verify', session, jsonBody(verifyBody), async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(c, dependencies, MFA_VERIFY_PER_USER, String(user.id));
      if (refusal) return refusal;
      const { otp, method, remember_device: remember } = c.req.valid('json');
      const context = requestContext(c, remember);
      const origin = requestOrigin(c, trustedProxies);
      if (method === 'recovery_code') {
        const result = await verifyRecoveryCode(db, clock, context, { otp, publicOrigin, origin });
        if (!result.verified) return refusedCode(c, result, ErrorMessage.invalidRecoveryCode);
        return verifiedAnswer(c, result, { recovery_codes_left: result.recoveryCodesLeft });
      }
      const result =
        method === 'app'
          ? await verifyAppCode(db, clock, factorSecrets, context, { otp, publicOrigin, origin })
          : await verifyMfaCode(db, clock, context, otp, publicOrigin, origin);
      if (!result.verified) return refusedCode(c, result);
      return verifiedAnswer(c, result);
    })
    .post('/app', session, mayAddFactor, async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(
        c,
        dependencies,
        MFA_APP_SETUP_PER_USER,
        String(user.id),
      );
      if (refusal) return refusal;
      return c.json(await startAppSetup(db, clock, factorSecrets, user));
    })
    .post('/app/confirm', session, mayAddFactor, jsonBody(appCodeBody), async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(c, dependencies, MFA_VERIFY_PER_USER, String(user.id));
      if (refusal) return refusal;
      const { otp, remember_device: remember } = c.req.valid('json');
      const result = await confirmApp(db, clock, factorSecrets, requestContext(c, remember), {
        otp,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (!result.verified) {
        return result.reason === 'no_setup'
          ? errorResponse(c, 422, ErrorMessage.noAppSetUp)
          : refusedCode(c, result);
      }
      // The first set is shown once, here: the key is absent when the member already had codes.
      return verifiedAnswer(
        c,
        result,
        result.recoveryCodes ? { recovery_codes: result.recoveryCodes } : {},
      );
    })
    .post(
      '/recovery-codes',
      // Past the MFA step: a password alone must not get codes that stand in for the factor.
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_RECOVERY_CODES_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_RECOVERY_CODES_PER_USER),
      async (c) => {
        const result = await renewRecoveryCodes(db, clock, c.get('user'), {
          currentPassword: c.req.valid('json').user.current_password,
          publicOrigin,
          origin: requestOrigin(c, trustedProxies),
        });
        if (result.renewed) return c.json({ recovery_codes: result.recoveryCodes }, 201);
        switch (result.reason) {
          case 'wrong_current_password':
            return wrongCurrentPasswordResponse(c);
          case 'not_enrolled':
            return errorResponse(c, 422, ErrorMessage.noTwoStepForRecoveryCodes);
        }
      },
    )
    .delete(
      '/app',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_APP_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_APP_REMOVAL_PER_USER),
      (c) => removeFactor(c, { factor: 'app' }, c.req.valid('json').user.current_password),
    )
    .delete(
      '/phone',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_PHONE_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_PHONE_REMOVAL_PER_USER),
      (c) => removeFactor(c, { factor: 'sms' }, c.req.valid('json').user.current_password),
    )
    .get('/passkeys', requireSession(dependencies), async (c) =>
      c.json({ passkeys: await listPasskeys(db, c.get('user').id) }),
    )
    .post('/passkeys/registration-options', session, mayAddFactor, async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(
        c,
        dependencies,
        MFA_PASSKEY_OPTIONS_PER_USER,
        String(user.id),
      );
      if (refusal) return refusal;
      return c.json({
        options: await registrationOptions(db, clock, party, user, c.get('session').id),
      });
    })
    .post('/passkeys', session, mayAddFactor, jsonBody(addPasskeyBody), async (c) => {
      const { name: typed, credential, remember_device: remember } = c.req.valid('json');
      const name = typed.trim();
      if (name === '') return errorResponse(c, 422, ErrorMessage.passkeyNameMissing, 'name');
      if (name.length > PASSKEY_NAME_MAX_LENGTH) {
        return errorResponse(c, 422, ErrorMessage.passkeyNameTooLong, 'name');
      }
      const result = await addPasskey(db, clock, requestContext(c, remember), {
        name,
        credential,
        party,
        publicOrigin,
        origin: requestOrigin(c, trustedProxies),
      });
      if (!result.added) {
        return errorResponse(
          c,
          422,
          result.reason === 'too_many'
            ? ErrorMessage.tooManyPasskeys
            : ErrorMessage.passkeyNotAdded,
        );
      }
      return verifiedAnswer(
        c,
        result,
        {
          passkey: result.passkey,
          ...(result.recoveryCodes ? { recovery_codes: result.recoveryCodes } : {}),
        },
        201,
      );
    })
    .post('/passkeys/authentication-options', session, async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(
        c,
        dependencies,
        MFA_PASSKEY_OPTIONS_PER_USER,
        String(user.id),
      );
      if (refusal) return refusal;
      const options = await secondStepOptions(db, clock, party, requestContext(c));
      if (!options) return errorResponse(c, 422, ErrorMessage.noPasskey);
      return c.json({ options });
    })
    .post('/passkeys/verify', session, jsonBody(passkeyStepBody), async (c) => {
      const user = c.get('user');
      const refusal = await tooManyRequests(c, dependencies, MFA_VERIFY_PER_USER, String(user.id));
      if (refusal) return refusal;
      const { credential, remember_device: remember } = c.req.valid('json');
      const result = await verifyPasskeyStep(db, clock, requestContext(c, remember), {
        credential,
        party,
        origin: requestOrigin(c, trustedProxies),
      });
      if (!result.verified) return errorResponse(c, 422, ErrorMessage.passkeyNotAccepted);
      return verifiedAnswer(c, result);
    })
    .delete(
      '/passkeys/:id',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_PASSKEY_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_PASSKEY_REMOVAL_PER_USER),
      (c) =>
        removeFactor(
          c,
          { factor: 'passkey', passkeyId: c.req.param('id') },
          c.req.valid('json').user.current_password,
        ),
    )
    .delete(
      '/',
      // Past the MFA step: turning it off takes a session that completed it.
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_TURN_OFF_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_TURN_OFF_PER_USER),
      async (c) => {
        const result = await turnOffMfa(db, clock, c.get('user'), {
          currentPassword: c.req.valid('json').user.current_password,
          publicOrigin,
          origin: requestOrigin(c, trustedProxies),
        });
        if (result.turnedOff) return c.body(null, 204);
        switch (result.reason) {
          case 'wrong_current_password':
            return wrongCurrentPasswordResponse(c);
          case 'company_requires':
            return errorResponse(c, 403, ErrorMessage.companyRequiresMfa);
          case 'not_enrolled':
            return errorResponse(c, 422, ErrorMessage.twoStepAlreadyOff);
        }
      },
    )
    .post('/skip', session, async (c) => {
      if (c.get('companyRequiresMfa')) {
        return errorResponse(c, 403, ErrorMessage.companyRequiresMfa);
      }
      await declineMfaEnrollment(db, clock, c.get('user').id);
      return c.body(null, 204);
    });
}

function requestContext(c: Context<ApiEnv>, rememberDevice = false): MfaRequestContext {
  return {
    userId: c.get('user').id,
    sessionId: c.get('session').id,
    mfaVerified: c.get('mfaVerified'),
    rememberDevice,
  };
}

/**
 * The answer to a code that took the MFA step: the new mfa token, what else it brought, and the
 * remembered device's token when the member asked for one (shown only here, as the mfa token).
 */
function verifiedAnswer(
  c: Context<ApiEnv>,
  step: CompletedStep,
  more: Record<string, unknown> = {},
  status: 200 | 201 = 200,
) {
  c.header(MFA_TOKEN_HEADER, step.mfaToken);
  const device = step.rememberedDevice;
  return c.json(
    {
      success: true,
      ...more,
      ...(device
        ? { device_token: device.token, device_token_expires_at: device.expiresAt.toISOString() }
        : {}),
    },
    status,
  );
}

/** The answer to a code that did not take the step: paused codes, or the code's own refusal. */
function refusedCode(
  c: Context<ApiEnv>,
  refusal: CodeRefusal,
  invalid: string = ErrorMessage.invalidMfaCode,
) {
  return refusal.reason === 'codes_paused'
    ? errorResponse(c, 403, CODES_PAUSED_MESSAGE)
    : errorResponse(c, 422, invalid);
}
