import { useEffect, useRef } from 'react';
import styles from './Ripple.module.css';
import { RIPPLE_DURATION_MS, rippleGeometry } from './ripple-geometry';

/** Props of {@link Ripple}. */
export interface RippleProps {
  /** No ripple while true (for example while the host is disabled or busy). */
  disabled?: boolean | undefined;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function spawnWave(surface: HTMLElement, event: PointerEvent): void {
  // Reduced motion means no ripple at all, not a shorter one.
  if (window.matchMedia(REDUCED_MOTION).matches) return;
  const host = surface.getBoundingClientRect();
  const { left, top, diameter } = rippleGeometry(host, event.clientX, event.clientY);
  const wave = document.createElement('span');
  wave.className = styles.wave ?? '';
  // Set through the CSSOM rather than a style attribute: the page's CSP forbids inline style attributes.
  wave.style.left = `${left}px`;
  wave.style.top = `${top}px`;
  wave.style.width = `${diameter}px`;
  wave.style.height = `${diameter}px`;
  surface.append(wave);
  if (typeof wave.animate !== 'function') {
    wave.remove();
    return;
  }
  const animation = wave.animate(
    [
      { transform: 'scale(0)', opacity: 0.35 },
      { transform: 'scale(1)', opacity: 0 },
    ],
    { duration: RIPPLE_DURATION_MS, easing: 'ease-out' },
  );
  animation.onfinish = () => {
    wave.remove();
  };
  animation.oncancel = () => {
    wave.remove();
  };
}

/**
 * A press ripple (about 401 ms). Place it as the last child of a positioned element; it listens to
 * presses on that parent and draws nothing on the server, under reduced motion, or when disabled.
 */
export function Ripple({ disabled = false }: RippleProps) {
  const surfaceRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const surface = surfaceRef.current;
    const host = surface?.parentElement;
    if (!surface || !host || disabled) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (event.button !== 0) return;
      spawnWave(surface, event);
    };
    host.addEventListener('pointerdown', onPointerDown);
    return () => {
      host.removeEventListener('pointerdown', onPointerDown);
    };
  }, [disabled]);

  return <span ref={surfaceRef} className={styles.surface} aria-hidden="true" />;
}
