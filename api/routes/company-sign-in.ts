import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { clientAddress, requestOrigin } from '../../platform/client-address.ts';
import { logger } from '../../platform/logger.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../http/errors.ts';
import { rateLimit, tooManyRequests } from '../http/rate-limit.ts';
import { jsonBody, passwordInput } from '../http/validation.ts';
import {
  finishCompanySignIn,
  startCompanySignIn,
  currentCompanySignIn,
  type CompanySignInServices,
} from '../services/company-sign-in/company-sign-in.ts';
import {
  awaitingLink,
  linkWithCode,
  linkWithPassword,
} from '../services/company-sign-in/linking.ts';
import type { CompanySession } from '../services/company-sign-in/identities.ts';
import { samlSettings } from '../services/company-sign-in/connection-settings.ts';
import { connectionForCompanySlug } from '../services/company-sign-in/connections.ts';
import { answerSamlSignIn } from '../services/company-sign-in/saml-answers.ts';
import { serviceProviderMetadata } from '../services/company-sign-in/saml-protocol.ts';
import { CompanySignInRefusal } from '../services/company-sign-in/refusal.ts';
import { companyRequiresMfa } from '../services/factors/two-step-verification.ts';
import { signInMfaFlags } from '../services/factors/offer.ts';
import { COMPANY_SIGN_IN_PER_IP, MFA_VERIFY_PER_USER } from '../services/rate-limits.ts';
import { MFA_TOKEN_HEADER } from '../../contract/headers.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';
import { refusedCode } from './mfa/step-answers.ts';

/** A sign-in's token: any short string, so that a wrong one is refused as expired, not malformed. */
const token = z.string().max(128);

const startBody = z.union([
  z.object({ email: z.string().trim().toLowerCase().max(254).pipe(z.email()) }).strict(),
  z.object({ company_slug: z.string().trim().toLowerCase().min(1).max(100) }).strict(),
]);

const callbackBody = z.object({
  token,
  /** The query string the provider sent the browser back with, without its `?` (OIDC). */
  callback_query: z.string().max(8192).default(''),
});

const companySlug = z.string().trim().toLowerCase().min(1).max(100);

const samlAnswerBody = z.object({
  company_slug: companySlug,
  /** The base64 SAMLResponse of the HTTP-POST binding, as the browser posted it. */
  saml_response: z.string().min(1).max(60_000),
});

/**
 * The owner's proof of the account the provider named, by `method`: its password (the default,
 * in `user.current_password`), a code of its authenticator app (`app`) or one of its recovery
 * codes (`recovery_code`), in `otp` as at POST /mfa/verify.
 */
const linkBody = z.discriminatedUnion('method', [
  z.object({
    token,
    method: z.literal('password').optional(),
    user: z.object({ current_password: passwordInput }),
  }),
  z.object({ token, method: z.enum(['app', 'recovery_code']), otp: z.string().max(64) }),
]);

/**
 * Company sign-in: /api/v1/company_sign_in. The browser never talks to the API: the portal starts
 * a sign-in, keeps its token in a cookie, sends the browser to the company's provider, and hands
 * the provider's answer on here (docs/PRODUCT.md §15).
 */
export function createCompanySignInRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, companySignIn, factorSecrets } = dependencies;
  const services: CompanySignInServices = { db, clock, publicOrigin, ...companySignIn };
  const perAddress = rateLimit(dependencies, COMPANY_SIGN_IN_PER_IP, (c) =>
    clientAddress(c, trustedProxies),
  );

  async function signedIn(
    c: Context<ApiEnv>,
    session: CompanySession,
    more: Record<string, unknown> = {},
  ) {
    c.header('Authorization', `Bearer ${session.issued.token}`);
    if (session.mfaToken !== undefined) c.header(MFA_TOKEN_HEADER, session.mfaToken);
    const requiresMfa = await companyRequiresMfa(db, session.user.companyId);
    return c.json({
      expires_at: session.issued.expiresAt.toISOString(),
      ...(session.mfaToken === undefined
        ? signInMfaFlags(session.user, requiresMfa, clock.now())
        : { mfa_requires_verification: false, mfa_required: false }),
      created: session.created,
      ...more,
    });
  }

  return new Hono<ApiEnv>()
    .onError((error, c) => {
      if (!(error instanceof CompanySignInRefusal)) throw error;
      // The code alone: the cause may quote what the provider sent.
      logger.warn({ refusal: error.code }, 'company sign-in refused');
      if (error.code === 'unknown_or_used') {
        return errorResponse(c, 400, ErrorMessage.companySignInExpired);
      }
      // Not 502: that would say the API itself is away.
      if (error.code === 'provider_unavailable') {
        return errorResponse(c, 424, ErrorMessage.companySignInUnavailable);
      }
      return errorResponse(c, 403, ErrorMessage.companySignInFailed);
    })
    .post('/start', jsonBody(startBody), perAddress, async (c) => {
      const body = c.req.valid('json');
      const started = await startCompanySignIn(
        services,
        'email' in body ? { email: body.email } : { companySlug: body.company_slug },
      );
      if (!started) return c.json({ company_sign_in: null });
      return c.json({
        company_sign_in: {
          token: started.token,
          redirect_url: started.redirectUrl,
          company: { name: started.companyName },
          expires_at: started.expiresAt.toISOString(),
        },
      });
    })
    .post('/current', jsonBody(z.object({ token })), async (c) => {
      // Not counted per address: each render of CompanySignIn and CompanySignInLink reads it,
      // and it finds only the sign-in of a token no one can guess.
      const current = await currentCompanySignIn(services, c.req.valid('json').token);
      if (!current) return errorResponse(c, 404, ErrorMessage.companySignInExpired);
      return c.json(
        current.state === 'waiting'
          ? {
              state: current.state,
              redirect_url: current.redirectUrl,
              company: { name: current.companyName },
            }
          : {
              state: current.state,
              email: current.email,
              company: { name: current.companyName },
              link_methods: current.linkMethods,
            },
      );
    })
    .post('/callback', jsonBody(callbackBody), perAddress, async (c) => {
      const body = c.req.valid('json');
      const outcome = await finishCompanySignIn(services, {
        token: body.token,
        callbackQuery: body.callback_query,
        origin: requestOrigin(c, trustedProxies),
      });
      if (outcome.kind === 'link_required') {
        return c.json({
          link_required: { email: outcome.email, company: { name: outcome.companyName } },
        });
      }
      return signedIn(c, outcome);
    })
    .post('/saml/acs', jsonBody(samlAnswerBody), perAddress, async (c) => {
      const body = c.req.valid('json');
      await answerSamlSignIn(services, {
        companySlug: body.company_slug,
        samlResponse: body.saml_response,
      });
      return c.body(null, 204);
    })
    .get('/saml/:companySlug/metadata', perAddress, async (c) => {
      const slug = companySlug.safeParse(c.req.param('companySlug'));
      const found = slug.success ? await connectionForCompanySlug(db, slug.data) : undefined;
      if (found?.connection.protocol !== 'saml') {
        return errorResponse(c, 404, ErrorMessage.notFound);
      }
      const metadata = serviceProviderMetadata(
        samlSettings(found.connection, publicOrigin, found.companySlug),
      );
      // JSON as every answer of the API; the portal serves the XML itself.
      return c.json({ metadata });
    })
    .post('/link', jsonBody(linkBody), perAddress, async (c) => {
      const body = c.req.valid('json');
      const origin = requestOrigin(c, trustedProxies);
      if (!('user' in body)) {
        const awaiting = await awaitingLink(services, body.token);
        // The tries at an account's codes share one count, here and at the MFA step.
        const tooMany = await tooManyRequests(
          c,
          dependencies,
          MFA_VERIFY_PER_USER,
          String(awaiting.user.id),
        );
        if (tooMany) return tooMany;
        const outcome = await linkWithCode(services, factorSecrets, awaiting, {
          method: body.method,
          otp: body.otp,
          origin,
        });
        if (outcome.kind === 'account_locked') {
          return errorResponse(c, 403, ErrorMessage.lockedAccountLink);
        }
        if (outcome.kind === 'code_refused') {
          return refusedCode(
            c,
            outcome,
            body.method === 'app' ? ErrorMessage.invalidMfaCode : ErrorMessage.invalidRecoveryCode,
          );
        }
        return signedIn(
          c,
          outcome,
          outcome.recoveryCodesLeft === undefined
            ? {}
            : { recovery_codes_left: outcome.recoveryCodesLeft },
        );
      }
      const outcome = await linkWithPassword(services, {
        token: body.token,
        password: body.user.current_password,
        origin,
      });
      if (outcome.kind === 'wrong_password') return wrongCurrentPasswordResponse(c);
      return signedIn(c, outcome);
    });
}
