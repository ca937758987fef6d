import styles from './Ripple.module.css';

/** Props of {@link Ripple}. */
interface RippleProps {
  /** No ripple while true (for example while the host is disabled or busy). */
  disabled?: boolean | undefined;
}

/**
 * A press ripple of about 401 ms (docs/PRODUCT.md §9). Place it as the last child of a positioned
 * element: pressing that element draws the wave. It is drawn by CSS alone (Ripple.module.css), so
 * it costs a page no script, works before hydration, and draws nothing under reduced motion.
 */
export function Ripple({ disabled = false }: RippleProps) {
  if (disabled) return null;
  return <span className={styles.surface} aria-hidden="true" />;
}
