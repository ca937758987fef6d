import { z } from 'zod';
import type { ApiClient } from './client';

/** One of the member's live sessions as the API describes it. */
const deviceSessionSchema = z.object({
  id: z.string().min(1).max(64),
  browser: z.string(),
  system: z.string().nullable(),
  device_type: z.string().nullable().optional().default(null),
  network: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }),
  current: z.boolean(),
});

export type DeviceSession = z.infer<typeof deviceSessionSchema>;

/** The member's live sessions, most recently used first. */
export const deviceSessionsPath = '/api/v1/users/sessions';

export async function fetchDeviceSessions(api: ApiClient): Promise<DeviceSession[]> {
  const { data } = await api.request('GET', deviceSessionsPath, {
    schema: z.object({ sessions: z.array(deviceSessionSchema) }),
  });
  return data.sessions;
}

/** Ends one of the member's sessions (404 once it has ended). */
export async function endDeviceSession(api: ApiClient, sessionId: string): Promise<void> {
  await api.request('DELETE', `/api/v1/users/sessions/${encodeURIComponent(sessionId)}`);
}

/** Ends every session of the member but this one. */
export async function endOtherDeviceSessions(api: ApiClient): Promise<void> {
  await api.request('DELETE', '/api/v1/users/sessions');
}

const rememberedDeviceSchema = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int()]).transform(String),
  browser: z.string(),
  system: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
  expires_at: z.iso.datetime({ offset: true }),
});

/** A browser that skips the step at sign-in until `expires_at`. */
export type RememberedDevice = z.infer<typeof rememberedDeviceSchema>;

/** The member's remembered devices, newest first. */
export const rememberedDevicesPath = '/api/v1/users/remembered-devices';

export async function fetchRememberedDevices(api: ApiClient): Promise<RememberedDevice[]> {
  const { data } = await api.request('GET', rememberedDevicesPath, {
    schema: z.object({ remembered_devices: z.array(rememberedDeviceSchema) }),
  });
  return data.remembered_devices;
}

/** Forgets one remembered device: its next sign-in takes the step. */
export async function forgetRememberedDevice(api: ApiClient, deviceId: string): Promise<void> {
  await api.request('DELETE', `/api/v1/users/remembered-devices/${encodeURIComponent(deviceId)}`);
}
