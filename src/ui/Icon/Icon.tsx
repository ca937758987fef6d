import styles from './Icon.module.css';

/**
 * The shapes several components draw. A shape only one component draws lives with it and is
 * passed as `path`, so that the islands that never draw it do not carry it.
 */
const PATHS = {
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
  success: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-2 15-5-5 1.4-1.4 3.6 3.6 7.6-7.6L19 8l-9 9Z',
  warning: 'M1 21h22L12 2 1 21Zm12-3h-2v-2h2v2Zm0-4h-2v-4h2v4Z',
  error: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-2h2v2Zm0-4h-2V7h2v6Z',
  close:
    'M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4l5.6 5.6L5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4Z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6Zm-1 7V3.5L18.5 9H13Z',
  external:
    'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7h-2v7ZM14 3v2h3.6l-9.8 9.8 1.4 1.4L19 6.4V10h2V3h-7Z',
} as const;

/** The names of the kit's icons. */
export type IconName = keyof typeof PATHS;

/** Props of {@link Icon}: one of the kit's icons by name, or a shape of the caller's own. */
export type IconProps = ({ name: IconName } | { path: string }) & {
  className?: string | undefined;
};

/**
 * A decorative 24×24 icon in the current text colour. Always hidden from assistive technology:
 * whatever it means must also be said in text next to it.
 */
export function Icon(props: IconProps) {
  const { className } = props;
  return (
    <svg
      className={[styles.icon, className].filter(Boolean).join(' ')}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={'name' in props ? PATHS[props.name] : props.path} fill="currentColor" />
    </svg>
  );
}
