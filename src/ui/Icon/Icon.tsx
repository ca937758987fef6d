import styles from './Icon.module.css';

/** Props of {@link Icon}. */
interface IconProps {
  /** The shape, in a 24×24 box: one of ./shapes.ts, or the caller's own. */
  path: string;
  className?: string | undefined;
}

/**
 * A decorative 24×24 icon in the current text colour. Always hidden from assistive technology:
 * whatever it means must also be said in text next to it.
 */
export function Icon({ path, className }: IconProps) {
  return (
    <svg
      className={[styles.icon, className].filter(Boolean).join(' ')}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} fill="currentColor" />
    </svg>
  );
}
