import { describe, expect, it } from 'vitest';
import { RIPPLE_DURATION_MS, rippleGeometry } from './ripple-geometry';

describe('rippleGeometry', () => {
  it('lasts about 401 milliseconds', () => {
    expect(RIPPLE_DURATION_MS).toBe(401);
  });

  it('centres the circle on the press point', () => {
    const { left, top, diameter } = rippleGeometry(
      { left: 100, top: 50, width: 200, height: 40 },
      150,
      60,
    );
    expect(left + diameter / 2).toBeCloseTo(50);
    expect(top + diameter / 2).toBeCloseTo(10);
  });

  it('reaches the farthest corner of the host', () => {
    const { diameter } = rippleGeometry({ left: 0, top: 0, width: 300, height: 40 }, 0, 0);
    expect(diameter / 2).toBeCloseTo(Math.hypot(300, 40));
  });

  it('covers a host pressed in its centre', () => {
    const { diameter } = rippleGeometry({ left: 0, top: 0, width: 100, height: 100 }, 50, 50);
    expect(diameter / 2).toBeCloseTo(Math.hypot(50, 50));
  });
});
