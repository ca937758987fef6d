import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit, rateLimitPerUser, tooManyRequests } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { authenticationCredential, registrationCredential } from '../../http/webauthn-input.ts';
import { PASSKEY_NAME_MAX_LENGTH, listPasskeys } from '../../services/factors/passkey-store.ts';
import { PRODUCT_NAME } from '../../services/messages/email-composition.ts';
import {
  MFA_PASSKEY_OPTIONS_PER_USER,
  MFA_PASSKEY_REMOVAL_PER_IP,
  MFA_PASSKEY_REMOVAL_PER_USER,
  MFA_VERIFY_PER_USER,
} from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { currentPasswordBody, mayAddFactor, removeFactor } from './factor-changes.ts';
import { rememberDevice, requestContext, verifiedAnswer } from './step-answers.ts';
import { addPasskey, registrationOptions } from '../../services/factors/passkey-registration.ts';
import { relyingParty } from '../../services/factors/passkey-ceremonies.ts';
import { secondStepOptions, verifyPasskeyStep } from '../../services/factors/passkey-step.ts';

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

/** Passkeys as a factor, at /api/v1/mfa/passkeys: listed, added, taking the step, removed. */
export function createPasskeysRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;
  const party = relyingParty(publicOrigin, PRODUCT_NAME);
  const session = requireSession(dependencies, { allowUnverifiedMfa: true });
  return new Hono<ApiEnv>()
    .get('/', requireSession(dependencies), async (c) =>
      c.json({ passkeys: await listPasskeys(db, c.get('user').id) }),
    )
    .post('/registration-options', session, mayAddFactor(dependencies), async (c) => {
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
    .post('/', session, mayAddFactor(dependencies), jsonBody(addPasskeyBody), async (c) => {
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
    .post('/authentication-options', session, async (c) => {
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
    .post('/verify', session, jsonBody(passkeyStepBody), async (c) => {
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
      '/:id',
      requireSession(dependencies),
      jsonBody(currentPasswordBody),
      rateLimit(dependencies, MFA_PASSKEY_REMOVAL_PER_IP, (c) => clientAddress(c, trustedProxies)),
      rateLimitPerUser(dependencies, MFA_PASSKEY_REMOVAL_PER_USER),
      (c) =>
        removeFactor(
          dependencies,
          c,
          { factor: 'passkey', passkeyId: c.req.param('id') },
          c.req.valid('json').user.current_password,
        ),
    );
}
