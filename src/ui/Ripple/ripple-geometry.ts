/** How long one ripple lasts (docs/PRODUCT.md §9: about 401 ms). */
export const RIPPLE_DURATION_MS = 401;

/** Where a ripple circle sits inside its host, in pixels relative to the host's top-left corner. */
export interface RippleGeometry {
  left: number;
  top: number;
  diameter: number;
}

/**
 * The circle centred on the press point that just covers the host's farthest corner, so the wave
 * reaches every edge at the same moment it fades out.
 */
export function rippleGeometry(
  host: { left: number; top: number; width: number; height: number },
  pressX: number,
  pressY: number,
): RippleGeometry {
  const x = pressX - host.left;
  const y = pressY - host.top;
  const farthestX = Math.max(x, host.width - x);
  const farthestY = Math.max(y, host.height - y);
  const radius = Math.hypot(farthestX, farthestY);
  return { left: x - radius, top: y - radius, diameter: radius * 2 };
}
