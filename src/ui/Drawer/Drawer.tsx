import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import '../tokens-kit.css';
import { Icon } from '../Icon/Icon';
import { closeShape } from '../Icon/shapes';
import styles from './Drawer.module.css';

/** The edge a {@link Drawer} slides in from. */
export type DrawerPosition = 'right' | 'left' | 'top' | 'bottom';

/** `nav` (275px on wider screens) or `panel` (660px); both full width on small screens. */
export type DrawerVariant = 'nav' | 'panel';

/** Props of {@link Drawer}. */
export interface DrawerProps {
  /** Controlled: the drawer shows while true. */
  open: boolean;
  /**
   * Called when the drawer asks to close (Escape, a click outside, its close button): set `open`
   * to false. Only a dismissible drawer asks; a non-dismissible one is closed by its content.
   */
  onClose?: (() => void) | undefined;
  /** The drawer's heading and accessible name. */
  title: string;
  /** Keeps the title for assistive technology only. */
  hideTitle?: boolean | undefined;
  /** `right` by default. */
  position?: DrawerPosition | undefined;
  /** `panel` by default. */
  variant?: DrawerVariant | undefined;
  /** Escape, a click outside and a close button close it. False by default. */
  dismissible?: boolean | undefined;
  /** The body scrolls when its content is taller than the drawer. True by default. */
  scrollable?: boolean | undefined;
  /** No padding around the body. */
  fullBleed?: boolean | undefined;
  /** Accessible name of the close button; "Close" by default. */
  closeLabel?: string | undefined;
  children: ReactNode;
}

/**
 * A modal drawer on the native `<dialog>`: focus moves into it when it opens (to its first
 * control, or the drawer itself) and returns where it was when it closes; the page behind is
 * inert. Slides in 0.3 s (not under reduced motion). State is exposed as `data-state`.
 */
export function Drawer({
  open,
  onClose,
  title,
  hideTitle = false,
  position = 'right',
  variant = 'panel',
  dismissible = false,
  scrollable = true,
  fullBleed = false,
  closeLabel = 'Close',
  children,
}: DrawerProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const pressStartedOnBackdrop = useRef(false);
  const titleId = useId();

  const requestClose = () => {
    if (dismissible) onClose?.();
  };
  const closedByBrowser = useEffectEvent(() => {
    // Browsers may close a dialog on their own (Chrome does on a second Escape); keep the owner in step.
    if (open) onClose?.();
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const onClosed = () => {
      const target = returnFocusTo.current;
      returnFocusTo.current = null;
      if (target?.isConnected) target.focus();
      closedByBrowser();
    };
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('close', onClosed);
    };
  }, []);

  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    // The owner decides: the dialog only closes when `open` turns false.
    event.preventDefault();
    requestClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    // Where `closedby` is not supported, a cancelled Escape can still close a dialog when pressed twice.
    if (event.key === 'Escape' && !dismissible) event.preventDefault();
  };

  // The frame fills the dialog, so a press whose target is the dialog itself is on the backdrop.
  const onPointerDown = (event: PointerEvent<HTMLDialogElement>) => {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  };
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    const onBackdrop = event.target === event.currentTarget && pressStartedOnBackdrop.current;
    pressStartedOnBackdrop.current = false;
    if (onBackdrop) requestClose();
  };

  return (
    // The dialog's own keyboard handling is Escape, which the handler below only tames.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialogRef}
      className={styles.drawer}
      aria-labelledby={titleId}
      closedby={dismissible ? 'closerequest' : 'none'}
      data-state={open ? 'open' : 'closed'}
      data-position={position}
      data-variant={variant}
      data-dismissible={dismissible ? '' : undefined}
      onCancel={onCancel}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onClick={onClick}
    >
      <div className={styles.frame}>
        <header className={styles.header} data-title-hidden={hideTitle ? '' : undefined}>
          <h2 id={titleId} className={hideTitle ? 'visually-hidden' : styles.title}>
            {title}
          </h2>
          {dismissible ? (
            <button
              type="button"
              className={styles.close}
              aria-label={closeLabel}
              onClick={() => onClose?.()}
            >
              <Icon path={closeShape} />
            </button>
          ) : null}
        </header>
        <div
          className={styles.body}
          data-scrollable={scrollable ? '' : undefined}
          data-full-bleed={fullBleed ? '' : undefined}
        >
          {children}
        </div>
      </div>
    </dialog>
  );
}
