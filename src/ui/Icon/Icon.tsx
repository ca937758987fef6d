import styles from './Icon.module.css';

const PATHS = {
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
  success: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-2 15-5-5 1.4-1.4 3.6 3.6 7.6-7.6L19 8l-9 9Z',
  warning: 'M1 21h22L12 2 1 21Zm12-3h-2v-2h2v2Zm0-4h-2v-4h2v4Z',
  error: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-2h2v2Zm0-4h-2V7h2v6Z',
  close:
    'M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4l5.6 5.6L5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4Z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z',
  upload:
    'M19.4 10a7.5 7.5 0 0 0-14-2A6 6 0 0 0 6 20h13a5 5 0 0 0 .4-10ZM14 13v4h-4v-4H7l5-5 5 5h-3Z',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6Zm-1 7V3.5L18.5 9H13Z',
  external:
    'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7h-2v7ZM14 3v2h3.6l-9.8 9.8 1.4 1.4L19 6.4V10h2V3h-7Z',
  chevronLeft: 'M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12l4.6-4.6Z',
  chevronRight: 'M10 6 8.6 7.4 13.2 12l-4.6 4.6L10 18l6-6-6-6Z',
  menu: 'M3 6h18v2H3V6Zm0 5h18v2H3v-2Zm0 5h18v2H3v-2Z',
  // Request categories (docs/PRODUCT.md §7.2.1).
  home: 'M12 3 1.5 12.5 2.8 14 4 12.9V21h6v-6h4v6h6v-8.1l1.2 1.1 1.3-1.5L12 3Z',
  travel:
    'M21.5 15.5v-2L13.5 8.5V3.8a1.5 1.5 0 0 0-3 0v4.7l-8 5v2l8-2.5v5.5l-2 1.5v1.5l3.5-1 3.5 1V20l-2-1.5V13l8 2.5Z',
  health: 'M9.5 3h5v6.5H21v5h-6.5V21h-5v-6.5H3v-5h6.5V3Z',
  finance: 'M2 5h20v14H2V5Zm2 2v10h16V7H4Zm8 1.5a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7Z',
  family:
    'M8 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm9 1a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM8 13c-3 0-7 1.5-7 4.5V20h14v-2.5C15 14.5 11 13 8 13Zm9 1c-.6 0-1.2 0-1.8.2 1.1.9 1.8 2 1.8 3.3V20h6v-2.5c0-2.4-3.6-3.5-6-3.5Z',
  errands:
    'M7 7V6a5 5 0 0 1 10 0v1h3l1 15H3L4 7h3Zm2 0h6V6a3 3 0 0 0-6 0v1Zm-2 3v2h2v-2H7Zm8 0v2h2v-2h-2Z',
} as const;

/** The names of the kit's icons. */
export type IconName = keyof typeof PATHS;

/** Props of {@link Icon}. */
export interface IconProps {
  name: IconName;
  className?: string | undefined;
}

/**
 * A decorative 24×24 icon in the current text colour. Always hidden from assistive technology:
 * whatever it means must also be said in text next to it.
 */
export function Icon({ name, className }: IconProps) {
  return (
    <svg
      className={[styles.icon, className].filter(Boolean).join(' ')}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
