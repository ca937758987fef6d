import { describe, expect, it } from 'vitest';
import { deviceLabel } from './device-label';

describe('deviceLabel', () => {
  it('names the browser on its system', () => {
    expect(deviceLabel({ browser: 'Safari 17.5', system: 'macOS' })).toBe('Safari 17.5 on macOS');
  });

  it('names the browser alone when the system is unknown', () => {
    expect(deviceLabel({ browser: 'Unknown browser', system: null })).toBe('Unknown browser');
  });
});
