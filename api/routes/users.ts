import { Hono } from 'hono';
import { z } from 'zod';
import { bearerToken, requireSession } from '../http/authentication.ts';
import { clientAddress, requestOrigin } from '../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse, wrongCurrentPasswordResponse } from '../http/errors.ts';
import { rateLimit, rateLimitPerUser } from '../http/rate-limit.ts';
import { memberName } from '../http/member-name.ts';
import { jsonBody, passwordInput, queryParameters } from '../http/validation.ts';
import { deleteAccount } from '../services/account/account-deletion.ts';
import { exportAccount } from '../services/account/account-export.ts';
import { signIn, signOut } from '../services/sign-in/authentication.ts';
import {
  endDeviceSession,
  endOtherDeviceSessions,
  listDeviceSessions,
  type DeviceSession,
} from '../services/sign-in/devices.ts';
import { companyRequiresMfa } from '../services/factors/two-step-verification.ts';
import { signInMfaFlags } from '../services/factors/offer.ts';
import { INVALID_US_PHONE_NUMBER } from '../services/factors/phone-numbers.ts';
import { CONTACT_METHODS, HELP_TOPICS } from '../../contract/profile-choices.ts';
import { describeCurrentUser, updateProfile } from '../services/account/profile.ts';
import {
  forgetAllRememberedDevices,
  forgetRememberedDevice,
  listRememberedDevices,
  type RememberedDeviceView,
} from '../services/sign-in/remembered-devices.ts';
import { changePassword } from '../services/account/password-change.ts';
import { describeUserAgent } from '../services/sign-in/user-agents.ts';
import {
  ACCOUNT_DELETION_PER_IP,
  ACCOUNT_DELETION_PER_USER,
  ACCOUNT_EXPORT_PER_USER,
  PASSWORD_CHANGE_PER_IP,
  PASSWORD_CHANGE_PER_USER,
  SIGN_IN_PER_IP,
} from '../services/rate-limits.ts';
import {
  listSecurityEvents,
  parseSecurityEventCursor,
  type SecurityEventCursor,
} from '../services/account/security-events.ts';
import { createConfirmationRoutes, createEmailChangeRoutes } from './email-address.ts';
import { createPasskeySignInRoutes } from './passkey-sign-in.ts';
import { createPasswordRoutes } from './passwords.ts';
import { createReauthenticationRoutes } from './reauthentication.ts';
import { createSignUpRoutes } from './sign-up.ts';
import { createUnlockRoutes } from './unlock.ts';
import { MFA_TOKEN_HEADER } from '../../contract/headers.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const signInBody = z.object({
  user: z.object({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
    password: passwordInput,
  }),
  /**
   * The token of a remembered device, which the browser keeps from an earlier step. Any string up
   * to the cap is taken, so that a stale or mangled cookie is answered `device_remembered: false`
   * (and dropped) rather than refused.
   */
  device_token: z.string().max(128).optional(),
});

/**
 * The current password is capped as sign-in's is; the new one too, not at the policy's 128: the
 * policy counts characters of the NFKC form, which a cap on UTF-16 units cannot, and answers with
 * its own sentence (docs/decisions/048-password-change-signed-in.md).
 */
const passwordChangeBody = z.object({
  user: z.object({
    current_password: passwordInput,
    password: passwordInput,
  }),
});

const accountDeletionBody = z.object({
  user: z.object({
    current_password: passwordInput,
  }),
});

const profileBody = z.object({
  user: z.object({
    // The rules of sign-up (routes/sign-up.ts), refused in the same words.
    name: memberName().optional(),
    last_name: memberName().optional(),
    help_topics: z
      .array(z.enum(HELP_TOPICS))
      .max(HELP_TOPICS.length * 2)
      .optional(),
    phone_number: z.string().max(64).nullable().optional(),
    preferred_contact_method: z.enum(CONTACT_METHODS).nullable().optional(),
  }),
});

function rememberedDeviceJson(device: RememberedDeviceView) {
  return {
    id: device.id,
    browser: device.browser,
    system: device.system,
    created_at: device.createdAt.toISOString(),
    last_used_at: device.lastUsedAt?.toISOString() ?? null,
    expires_at: device.expiresAt.toISOString(),
  };
}

function deviceSessionJson(session: DeviceSession) {
  return {
    id: session.id,
    browser: session.browser,
    system: session.system,
    device_type: session.deviceType,
    user_agent: session.userAgent,
    network: session.network,
    created_at: session.createdAt.toISOString(),
    last_used_at: session.lastUsedAt.toISOString(),
    current: session.current,
  };
}

/** A `before`/`after` cursor of GET /users/events: as given in `next`/`previous`, else 400. */
const eventCursor = z
  .string()
  .max(40)
  .transform((text, context): SecurityEventCursor => {
    const cursor = parseSecurityEventCursor(text);
    if (cursor) return cursor;
    context.addIssue({
      code: 'custom',
      message: "must be the next or previous of an earlier page's answer",
    });
    return z.NEVER;
  })
  .optional();

const eventsQuery = z
  .object({ before: eventCursor, after: eventCursor })
  .refine((query) => !(query.before && query.after), {
    message: 'cannot be given with before',
    path: ['after'],
  });

/**
 * Accounts and sessions: /api/v1/users/… (docs/PRODUCT.md §7), with the sign-up (`/sign_up`),
 * password reset (`/password`), unlock (`/unlock`) and email address (`/confirmation`, `/email`)
 * routes mounted from their own files.
 */
export function createUsersRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies, publicOrigin, storage } = dependencies;

  return (
    new Hono<ApiEnv>()
      .post(
        '/sign_in',
        jsonBody(signInBody),
        rateLimit(dependencies, SIGN_IN_PER_IP, (c) => clientAddress(c, trustedProxies)),
        async (c) => {
          const { user: credentials, device_token: deviceToken } = c.req.valid('json');
          const result = await signIn(
            db,
            clock,
            { ...credentials, deviceToken },
            publicOrigin,
            requestOrigin(c, trustedProxies),
          );
          if (!result.signedIn) return errorResponse(c, 401, ErrorMessage.invalidCredentials);
          const requiresMfa = await companyRequiresMfa(db, result.user.companyId);
          c.header('Authorization', `Bearer ${result.issued.token}`);
          // A remembered device took the step: the session is as after POST /mfa/verify.
          if (result.mfaToken !== undefined) c.header(MFA_TOKEN_HEADER, result.mfaToken);
          // Without a device token the answer keeps the shape of docs/PRODUCT.md §7.1.
          return c.json({
            expires_at: result.issued.expiresAt.toISOString(),
            ...(result.mfaToken === undefined
              ? signInMfaFlags(result.user, requiresMfa, clock.now())
              : { mfa_requires_verification: false, mfa_required: false }),
            ...(result.deviceRemembered === undefined
              ? {}
              : { device_remembered: result.deviceRemembered }),
          });
        },
      )
      .patch(
        '/',
        requireSession(dependencies),
        jsonBody(passwordChangeBody),
        rateLimit(dependencies, PASSWORD_CHANGE_PER_IP, (c) => clientAddress(c, trustedProxies)),
        rateLimitPerUser(dependencies, PASSWORD_CHANGE_PER_USER),
        async (c) => {
          const { user: change } = c.req.valid('json');
          const result = await changePassword(
            db,
            clock,
            { user: c.get('user'), session: c.get('session') },
            {
              currentPassword: change.current_password,
              password: change.password,
              publicOrigin,
              origin: requestOrigin(c, trustedProxies),
            },
          );
          if (result.changed)
            return c.json(
              await describeCurrentUser(db, result.user, c.get('companyName'), clock.now()),
            );
          switch (result.reason) {
            case 'wrong_current_password':
              return wrongCurrentPasswordResponse(c);
            case 'same_password':
              return errorResponse(c, 422, ErrorMessage.samePassword, 'user.password');
            case 'password_policy':
              return errorResponse(
                c,
                422,
                result.message ?? ErrorMessage.badRequest,
                'user.password',
              );
          }
        },
      )
      .delete(
        '/',
        requireSession(dependencies),
        jsonBody(accountDeletionBody),
        rateLimit(dependencies, ACCOUNT_DELETION_PER_IP, (c) => clientAddress(c, trustedProxies)),
        rateLimitPerUser(dependencies, ACCOUNT_DELETION_PER_USER),
        async (c) => {
          const { user: deletion } = c.req.valid('json');
          const result = await deleteAccount(db, clock, storage, c.get('user'), {
            currentPassword: deletion.current_password,
            publicOrigin,
            origin: requestOrigin(c, trustedProxies),
          });
          if (result.deleted) return c.body(null, 204);
          return wrongCurrentPasswordResponse(c);
        },
      )
      .get('/events', requireSession(dependencies), queryParameters(eventsQuery), async (c) => {
        const page = await listSecurityEvents(db, c.get('user').id, c.req.valid('query'));
        return c.json({
          events: page.events.map((event) => {
            // In the Devices page's words: every client of the API names a browser alike.
            const { browser, system } = describeUserAgent(event.userAgent);
            return {
              kind: event.kind,
              occurred_at: event.occurredAt.toISOString(),
              network: event.network,
              user_agent: event.userAgent,
              browser: event.userAgent === null ? null : browser,
              system,
            };
          }),
          next: page.older,
          previous: page.newer,
        });
      })
      .get('/current', requireSession(dependencies), async (c) =>
        c.json(await describeCurrentUser(db, c.get('user'), c.get('companyName'), clock.now())),
      )
      .get(
        '/current/export',
        requireSession(dependencies),
        rateLimitPerUser(dependencies, ACCOUNT_EXPORT_PER_USER),
        async (c) => {
          const now = clock.now();
          const day = now.toISOString().slice(0, 10);
          c.header('Cache-Control', 'no-store');
          c.header(
            'Content-Disposition',
            `attachment; filename="member-concierge-data-${day}.json"`,
          );
          return c.json(await exportAccount(db, c.get('user'), now));
        },
      )
      .patch('/current', requireSession(dependencies), jsonBody(profileBody), async (c) => {
        const { user: changes } = c.req.valid('json');
        if (Object.values(changes).every((value) => value === undefined)) {
          return errorResponse(
            c,
            400,
            'user must have name, last_name, help_topics, phone_number or preferred_contact_method.',
            'user',
          );
        }
        const result = await updateProfile(db, clock, c.get('user').id, {
          name: changes.name,
          lastName: changes.last_name,
          helpTopics: changes.help_topics,
          phoneNumber: changes.phone_number,
          preferredContactMethod: changes.preferred_contact_method,
        });
        if (result.updated)
          return c.json(
            await describeCurrentUser(db, result.user, c.get('companyName'), clock.now()),
          );
        const message =
          result.reason === 'invalid_phone_number'
            ? INVALID_US_PHONE_NUMBER
            : ErrorMessage.contactPhoneRequired;
        return errorResponse(c, 422, message, 'user.phone_number');
      })
      // Devices (docs/PRODUCT.md §11.2): behind requireSession as every other /users call, so a
      // session still awaiting its code (or a company's required enrolment) cannot end the others.
      .get('/sessions', requireSession(dependencies), async (c) => {
        const listed = await listDeviceSessions(
          db,
          { userId: c.get('user').id, sessionId: c.get('session').id },
          clock.now(),
        );
        return c.json({ sessions: listed.map(deviceSessionJson) });
      })
      .delete('/sessions', requireSession(dependencies), async (c) => {
        const ended = await endOtherDeviceSessions(
          db,
          {
            userId: c.get('user').id,
            sessionId: c.get('session').id,
            origin: requestOrigin(c, trustedProxies),
          },
          clock.now(),
        );
        return c.json({ ended_count: ended });
      })
      .delete('/sessions/:id', requireSession(dependencies), async (c) => {
        const ended = await endDeviceSession(
          db,
          { userId: c.get('user').id, origin: requestOrigin(c, trustedProxies) },
          c.req.param('id'),
          clock.now(),
        );
        // Another member's session answers as an unknown one: the id tells nobody whose it is.
        if (!ended) return errorResponse(c, 404, ErrorMessage.sessionNotFound);
        return c.body(null, 204);
      })
      // Remembered devices (docs/PRODUCT.md §11.2): where the step is skipped, so, as Devices,
      // only a session past its MFA step may list or forget them. Unlimited, as ending sessions
      // is: each call only ever touches the caller's own rows.
      .get('/remembered-devices', requireSession(dependencies), async (c) => {
        const listed = await listRememberedDevices(db, c.get('user').id, clock.now());
        return c.json({ remembered_devices: listed.map(rememberedDeviceJson) });
      })
      .delete('/remembered-devices', requireSession(dependencies), async (c) => {
        await forgetAllRememberedDevices(
          db,
          { userId: c.get('user').id, origin: requestOrigin(c, trustedProxies) },
          clock.now(),
        );
        return c.body(null, 204);
      })
      .delete(
        '/remembered-devices/:id',
        requireSession(dependencies),
        // An id not shaped as one (PUBLIC_REMEMBERED_DEVICE_ID) is refused before any query.
        async (c) => {
          const forgotten = await forgetRememberedDevice(
            db,
            { userId: c.get('user').id, origin: requestOrigin(c, trustedProxies) },
            c.req.param('id'),
            clock.now(),
          );
          // Another member's device answers as an unknown one: the id tells nobody whose it is.
          if (!forgotten) return errorResponse(c, 404, ErrorMessage.rememberedDeviceNotFound);
          return c.body(null, 204);
        },
      )
      .delete('/sign_out', async (c) => {
        // Sign-out succeeds whatever the token's state: the client clears its session either way,
        // and a stale or unknown token has nothing left to revoke.
        const token = bearerToken(c);
        if (token) await signOut(db, clock, token, requestOrigin(c, trustedProxies));
        return c.body(null, 204);
      })
      .route('/sign_up', createSignUpRoutes(dependencies))
      .route('/passkey-sign-in', createPasskeySignInRoutes(dependencies))
      .route('/password', createPasswordRoutes(dependencies))
      .route('/unlock', createUnlockRoutes(dependencies))
      .route('/confirmation', createConfirmationRoutes(dependencies))
      .route('/email', createEmailChangeRoutes(dependencies))
      .route('/reauthentication', createReauthenticationRoutes(dependencies))
  );
}
