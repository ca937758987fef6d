import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';
import { Ripple } from '../Ripple/Ripple';
import styles from './Button.module.css';

/** Visual weight of a {@link Button}. */
/** `danger` is for the one press that destroys something (deleting the account). */
type ButtonVariant = 'primary' | 'secondary' | 'tertiary' | 'danger';

/** Props of {@link Button}: the native button props plus the kit's own. */
interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** Visual weight; `primary` by default. */
  variant?: ButtonVariant | undefined;
  /**
   * `compact` narrows the sides for a crowded row (a phone's header); the height, a touch target,
   * stays. Regular when left out. An attribute passed straight to the `<button>` rather than a prop
   * the component reads: the sign-in family's pages are within bytes of their 75 KB, and every
   * island with a button would carry the reading.
   */
  'data-size'?: 'compact' | undefined;
  /** `button` by default, so a button never submits a form by accident. */
  type?: 'button' | 'submit' | undefined;
  /**
   * Busy: the button keeps its width, shows a spinner, announces itself as busy and ignores
   * presses (clicks and form submissions) while staying focusable.
   */
  loading?: boolean | undefined;
  /** What assistive technology hears while loading; "Loading" by default. */
  loadingLabel?: string | undefined;
  ref?: Ref<HTMLButtonElement> | undefined;
  children: ReactNode;
}

/** The kit's button. Native `<button>`; `type="button"` unless told otherwise. */
export function Button({
  variant = 'primary',
  type = 'button',
  loading = false,
  loadingLabel = 'Loading',
  disabled,
  className,
  onClick,
  children,
  ref,
  ...native
}: ButtonProps) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (loading) {
      // Not `disabled`: that would drop focus mid-submit. Cancelling the click also cancels the submit.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };

  return (
    <button
      {...native}
      ref={ref}
      type={type}
      className={[styles.button, className].filter(Boolean).join(' ')}
      data-variant={variant}
      data-loading={loading ? '' : undefined}
      data-disabled={disabled ? '' : undefined}
      aria-disabled={loading ? true : native['aria-disabled']}
      aria-busy={loading ? true : undefined}
      disabled={disabled}
      onClick={handleClick}
    >
      <span className={styles.label}>{children}</span>
      {loading ? (
        <>
          <span className={styles.spinner} aria-hidden="true" />
          <span className="visually-hidden">{loadingLabel}</span>
        </>
      ) : null}
      <Ripple disabled={loading || Boolean(disabled)} />
    </button>
  );
}
