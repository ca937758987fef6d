import { Hono } from 'hono';
import { z } from 'zod';
import { clientAddress, requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { jsonBody } from '../../http/validation.ts';
import { authenticationCredential } from '../../http/webauthn-input.ts';
import { PRODUCT_NAME } from '../../services/messages/email-composition.ts';
import { PASSKEY_SIGN_IN_PER_IP } from '../../services/rate-limits.ts';
import { MFA_TOKEN_HEADER } from '../../../contract/headers.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';
import { relyingParty } from '../../services/factors/passkey-ceremonies.ts';
import { passkeySignInOptions, signInWithPasskey } from '../../services/factors/passkey-sign-in.ts';

const signInBody = z.object({
  /** The token given with the options; any short string, so that a wrong one is a 401. */
  challenge_token: z.string().max(128),
  credential: authenticationCredential,
});

/**
 * Signing in with a passkey alone: /api/v1/users/passkey-sign-in. The options carry a challenge and
 * a token that ties it to the asking browser; the answer, signed by a passkey verified by its
 * device's lock, starts a session past its MFA step, answered as `POST /users/sign_in` answers one
 * that a remembered device took past it.
 */
export function createPasskeySignInRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin } = dependencies;
  const party = relyingParty(publicOrigin, PRODUCT_NAME);
  const perAddress = rateLimit(dependencies, PASSKEY_SIGN_IN_PER_IP, (c) =>
    clientAddress(c, trustedProxies),
  );

  return new Hono<ApiEnv>()
    .post('/options', perAddress, async (c) => {
      const { options, challengeToken } = await passkeySignInOptions(db, clock, party);
      return c.json({ options, challenge_token: challengeToken });
    })
    .post('/', jsonBody(signInBody), perAddress, async (c) => {
      const { challenge_token: challengeToken, credential } = c.req.valid('json');
      const result = await signInWithPasskey(db, clock, {
        challengeToken,
        credential,
        party,
        origin: requestOrigin(c, trustedProxies),
      });
      if (!result.signedIn) return errorResponse(c, 401, ErrorMessage.passkeySignInFailed);
      c.header('Authorization', `Bearer ${result.issued.token}`);
      c.header(MFA_TOKEN_HEADER, result.mfaToken);
      return c.json({
        expires_at: result.issued.expiresAt.toISOString(),
        mfa_requires_verification: false,
        mfa_required: false,
      });
    });
}
