import { Hono } from 'hono';
import { requireSession } from '../../http/authentication.ts';
import { requestOrigin } from '../../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import {
  endDeviceSession,
  endOtherDeviceSessions,
  listDeviceSessions,
  type DeviceSession,
} from '../../services/sign-in/devices.ts';
import {
  forgetAllRememberedDevices,
  forgetRememberedDevice,
  listRememberedDevices,
  type RememberedDeviceView,
} from '../../services/sign-in/remembered-devices.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

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

/** Devices: /api/v1/users/sessions and /api/v1/users/remembered-devices. */
export function createDevicesRoutes(dependencies: ApiDependencies) {
  const { db, clock, trustedProxies } = dependencies;

  return (
    new Hono<ApiEnv>()
      // Devices: behind requireSession as every other /users call, so a session still awaiting its
      // code (or a company's required enrolment) cannot end the others.
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
      // Remembered devices: where the step is skipped, so, as Devices, only a session past its MFA
      // step may list or forget them. Unlimited, as ending sessions is: each call only ever touches
      // the caller's own rows.
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
  );
}
