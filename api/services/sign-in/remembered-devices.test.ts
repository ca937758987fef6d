import { describe, expect, it } from 'vitest';
import { HOUR } from '../../../platform/clock.ts';
import { publicSessionId } from './devices.ts';
import {
  devicesBeyondCap,
  PUBLIC_REMEMBERED_DEVICE_ID,
  publicRememberedDeviceId,
  REMEMBERED_DEVICE_LIFETIME_MS,
  REMEMBERED_DEVICES_PER_MEMBER,
  rememberedDeviceExpiry,
} from './remembered-devices.ts';
import { generateToken, hashToken } from '../tokens.ts';

describe('rememberedDeviceExpiry', () => {
  it('is 30 days after the step', () => {
    const now = new Date('2026-01-15T09:00:00.000Z');

    expect(REMEMBERED_DEVICE_LIFETIME_MS).toBe(30 * 24 * HOUR);
    expect(rememberedDeviceExpiry(now).toISOString()).toBe('2026-02-14T09:00:00.000Z');
  });
});

describe('publicRememberedDeviceId', () => {
  it('is 22 base64url characters, stable, and tells nothing of the token hash', () => {
    const tokenHash = hashToken(generateToken());

    const id = publicRememberedDeviceId({ tokenHash });

    expect(id).toMatch(PUBLIC_REMEMBERED_DEVICE_ID);
    expect(publicRememberedDeviceId({ tokenHash })).toBe(id);
    expect(tokenHash).not.toContain(id);
  });

  it('differs between devices, and from the id a session of the same hash would have', () => {
    const tokenHash = hashToken(generateToken());

    expect(publicRememberedDeviceId({ tokenHash })).not.toBe(
      publicRememberedDeviceId({ tokenHash: hashToken(generateToken()) }),
    );
    expect(publicRememberedDeviceId({ tokenHash })).not.toBe(publicSessionId({ tokenHash }));
  });
});

describe('devicesBeyondCap', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 15, 9, minutes));

  it('keeps every device up to the cap', () => {
    const devices = Array.from({ length: REMEMBERED_DEVICES_PER_MEMBER }, (_, index) => ({
      id: index + 1,
      createdAt: at(index),
    }));

    expect(devicesBeyondCap(devices)).toEqual([]);
  });

  it('forgets the oldest remembered past the cap, whatever the order given', () => {
    const devices = [
      { id: 3, createdAt: at(30) },
      { id: 1, createdAt: at(10) },
      { id: 4, createdAt: at(40) },
      { id: 2, createdAt: at(20) },
    ];

    expect(devicesBeyondCap(devices, 2).map((device) => device.id)).toEqual([2, 1]);
  });

  it('takes the smaller id as the older of two remembered in the same millisecond', () => {
    const devices = [
      { id: 7, createdAt: at(5) },
      { id: 8, createdAt: at(5) },
    ];

    expect(devicesBeyondCap(devices, 1).map((device) => device.id)).toEqual([7]);
  });
});
