import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { monitoring } from '../platform/monitoring.ts';
import { isFromTrustedProxy } from '../platform/client-address.ts';
import type { ApiDependencies } from './http/context.ts';
import { currentRequestId, logger, requestIdFor, withRequestId } from '../platform/logger.ts';
import { errorResponse } from './http/errors.ts';
import { createBatchRoutes } from './routes/batch.ts';
import { createCompaniesRoutes } from './routes/companies.ts';
import { createCompanySignInRoutes } from './routes/company-sign-in.ts';
import { createAttachmentsRoutes } from './routes/attachments.ts';
import { createDashboardRoutes } from './routes/dashboard.ts';
import { createDirectUploadsRoutes } from './routes/direct-uploads.ts';
import { createHealthRoutes } from './routes/health.ts';
import { createAuthenticatorAppRoutes } from './routes/mfa/authenticator-app.ts';
import { createPasskeysRoutes } from './routes/mfa/passkeys.ts';
import { createPhoneRoutes } from './routes/mfa/phone.ts';
import { createRecoveryCodesRoutes } from './routes/mfa/recovery-codes.ts';
import { createStepRoutes } from './routes/mfa/step.ts';
import { createTwoStepVerificationRoutes } from './routes/mfa/two-step-verification.ts';
import { createOutboxRoutes } from './routes/outbox.ts';
import { createRequestCategoriesRoutes } from './routes/request-categories.ts';
import { createRequestsRoutes } from './routes/requests.ts';
import { createStorageRoutes } from './routes/storage.ts';
import { createAccountRoutes } from './routes/users/account.ts';
import { createCurrentUserRoutes } from './routes/users/current-user.ts';
import { createDevicesRoutes } from './routes/users/devices.ts';
import { createConfirmationRoutes, createEmailChangeRoutes } from './routes/users/email-address.ts';
import { createPasskeySignInRoutes } from './routes/users/passkey-sign-in.ts';
import { createPasswordRoutes } from './routes/users/passwords.ts';
import { createReauthenticationRoutes } from './routes/users/reauthentication.ts';
import { createSignInRoutes } from './routes/users/sign-in.ts';
import { createSignUpRoutes } from './routes/users/sign-up.ts';
import { createUnlockRoutes } from './routes/users/unlock.ts';
import { LocalFileStorage, STORAGE_PATH } from './services/files/storage/local-storage.ts';
import { REQUEST_ID_HEADER } from '../contract/headers.ts';
import { ErrorMessage } from '../contract/error-messages.ts';

export type { ApiDependencies } from './http/context.ts';

/** No JSON call of the API needs more; file contents go to the storage routes instead. */
const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * The reference API as a Hono app: one sub-app per resource under /api/v1, plus, with the local
 * storage driver, its upload and download addresses under /storage. Every answer but a downloaded
 * file is JSON; errors are `{"error": "…"}` and never carry a stack, a path or SQL.
 */
export function createApiApp(dependencies: ApiDependencies): Hono {
  const v1 = new Hono()
    // Accounts and sessions.
    .route('/users', createSignInRoutes(dependencies))
    .route('/users', createAccountRoutes(dependencies))
    .route('/users', createCurrentUserRoutes(dependencies))
    .route('/users', createDevicesRoutes(dependencies))
    .route('/users/sign_up', createSignUpRoutes(dependencies))
    .route('/users/passkey-sign-in', createPasskeySignInRoutes(dependencies))
    .route('/users/password', createPasswordRoutes(dependencies))
    .route('/users/unlock', createUnlockRoutes(dependencies))
    .route('/users/confirmation', createConfirmationRoutes(dependencies))
    .route('/users/email', createEmailChangeRoutes(dependencies))
    .route('/users/reauthentication', createReauthenticationRoutes(dependencies))
    .route('/company_sign_in', createCompanySignInRoutes(dependencies))
    // Two-step verification: every route needs a session, and all but turning it off, renewing
    // codes, listing passkeys and removing a factor work before the step (that is what they
    // complete).
    .route('/mfa', createTwoStepVerificationRoutes(dependencies))
    .route('/mfa', createStepRoutes(dependencies))
    .route('/mfa', createPhoneRoutes(dependencies))
    .route('/mfa/app', createAuthenticatorAppRoutes(dependencies))
    .route('/mfa/passkeys', createPasskeysRoutes(dependencies))
    .route('/mfa/recovery-codes', createRecoveryCodesRoutes(dependencies))
    .route('/dashboard', createDashboardRoutes(dependencies))
    .route('/requests', createRequestsRoutes(dependencies))
    .route('/request_categories', createRequestCategoriesRoutes(dependencies))
    .route('/direct_uploads', createDirectUploadsRoutes(dependencies))
    .route('/attachments', createAttachmentsRoutes(dependencies))
    .route('/companies', createCompaniesRoutes(dependencies))
    // Its reads go through the whole app, as if each had been sent alone.
    .route(
      '/batch',
      createBatchRoutes(dependencies, () => app),
    );
  // Development only: without the option the path does not exist (404 "Not found.").
  if (dependencies.outboxViewer) v1.route('/outbox', createOutboxRoutes(dependencies));

  const app = new Hono();
  // The caller's request id (the web server's, when it is a trusted proxy) on every log line of
  // this call and in the answer; called in-process, the web server's request is already known.
  app.use(async (c, next) => {
    const inProcess = currentRequestId();
    const requestId =
      inProcess ??
      requestIdFor(
        c.req.header(REQUEST_ID_HEADER),
        isFromTrustedProxy(c, dependencies.trustedProxies),
      );
    c.header('X-Request-Id', requestId);
    // In-process, the call is part of the page's request, which counts its statements.
    await (inProcess === undefined ? withRequestId(requestId, next) : next());
  });
  app.use(async (c, next) => {
    await next();
    // Answers carry tokens and personal data: no cache may keep them (downloads say so
    // themselves, in their own words).
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  });
  // Only the JSON calls: uploads to /storage are bounded by their signed, declared size.
  app.use(
    '/api/v1/*',
    bodyLimit({
      maxSize: MAX_JSON_BODY_BYTES,
      onError: (c) => errorResponse(c, 413, ErrorMessage.bodyTooLarge),
    }),
  );
  app.route('/api/v1', v1);
  app.route('/', createHealthRoutes(dependencies));
  if (dependencies.storage instanceof LocalFileStorage) {
    app.route(STORAGE_PATH, createStorageRoutes(dependencies, dependencies.storage));
  }

  app.notFound((c) => errorResponse(c, 404, ErrorMessage.notFound));
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      // Raised by Hono itself for requests it cannot read; its wording is not ours to show.
      const message = error.status === 413 ? ErrorMessage.bodyTooLarge : ErrorMessage.badRequest;
      return errorResponse(c, error.status, message);
    }
    monitoring.reportError(error);
    // The route's pattern, not the address: the API's tokens that travel in a path are parameters.
    const call = { method: c.req.method, path: routePath(c, -1) };
    if (isDatabaseUnavailable(error)) {
      // Not a fault of this call: the database is away, and callers may try again later.
      logger.error({ err: error, ...call }, 'API call failed: the database is unavailable');
      c.header('Retry-After', '30');
      return errorResponse(c, 503, ErrorMessage.unavailable);
    }
    logger.error({ err: error, ...call }, 'API call failed');
    return errorResponse(c, 500, ErrorMessage.internal);
  });
  return app;
}
