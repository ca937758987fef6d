import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { Icon } from '../Icon/Icon';
import { closeShape, errorShape, infoShape, successShape, warningShape } from '../Icon/shapes';
import styles from './Message.module.css';

/** How serious a {@link Message} is. */
type MessageSeverity = 'info' | 'success' | 'warning' | 'error';

const severityShapes: Record<MessageSeverity, string> = {
  info: infoShape,
  success: successShape,
  warning: warningShape,
  error: errorShape,
};

/** How long a closing message takes to fade out (docs/PRODUCT.md §9: 0.3 s). */
const MESSAGE_FADE_MS = 300;

/** Props of {@link Message}. */
interface MessageProps {
  /** `info` by default. Warnings and errors are alerts; the others are polite status messages. */
  severity?: MessageSeverity | undefined;
  /** Milliseconds after which the message fades out by itself. */
  lifetime?: number | undefined;
  /** Shows a "Close" button. */
  closable?: boolean | undefined;
  /** Called once the message has faded out, whether closed by the user or by its lifetime. */
  onClose?: (() => void) | undefined;
  /** Accessible name of the close button; "Close" by default. */
  closeLabel?: string | undefined;
  /** The icon; the severity's own by default (the uploader's size error shows a warning icon). */
  icon?: MessageSeverity | undefined;
  children: ReactNode;
}

type Phase = 'open' | 'closing' | 'closed';

/** An inline message box with an icon, that may close itself or be closed, and fades (0.3 s). */
export function Message({
  severity = 'info',
  lifetime,
  closable = false,
  onClose,
  closeLabel = 'Close',
  icon,
  children,
}: MessageProps) {
  const [phase, setPhase] = useState<Phase>('open');
  const notifyClosed = useEffectEvent(() => {
    onClose?.();
  });

  useEffect(() => {
    if (lifetime === undefined || lifetime <= 0) return undefined;
    const timer = setTimeout(() => {
      setPhase('closing');
    }, lifetime);
    return () => {
      clearTimeout(timer);
    };
  }, [lifetime]);

  useEffect(() => {
    if (phase !== 'closing') return undefined;
    // A timer, not transitionend: under reduced motion there is no transition to end.
    const timer = setTimeout(() => {
      setPhase('closed');
      notifyClosed();
    }, MESSAGE_FADE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [phase]);

  if (phase === 'closed') return null;

  const urgent = severity === 'error' || severity === 'warning';
  return (
    <div
      className={styles.message}
      role={urgent ? 'alert' : 'status'}
      data-severity={severity}
      data-state={phase === 'open' ? 'open' : 'closed'}
    >
      <Icon path={severityShapes[icon ?? severity]} className={styles.icon} />
      <div className={styles.body}>{children}</div>
      {closable ? (
        <button
          type="button"
          className={styles.close}
          aria-label={closeLabel}
          onClick={() => {
            setPhase('closing');
          }}
        >
          <Icon path={closeShape} />
        </button>
      ) : null}
    </div>
  );
}
