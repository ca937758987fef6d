import { HOUR } from '../../../platform/clock.ts';

/** Members with each set of factors, for the tests of which factors count and when. */
export const DAY = 24 * HOUR;
export const now = new Date('2026-01-15T09:00:00.000Z');
export const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
export const phone = '+15555550123';
export const noFactor = { mfaPhone: null, totpConfirmedAt: null, passkeyCount: 0 };
export const phoneOnly = { ...noFactor, mfaPhone: phone };
export const appOnly = { ...noFactor, totpConfirmedAt: ago(DAY) };
export const passkeysOnly = { ...noFactor, passkeyCount: 2 };
