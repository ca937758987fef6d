import { useStore } from '@nanostores/react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  $notifications,
  closeNotification,
  exposeNotificationsGlobally,
  adoptNotification,
  type Notification,
  type NotificationInput,
} from '../../stores/notifications';
import styles from './Toaster.module.css';

export interface ToasterProps {
  /** Toasts carried over a redirect, rendered on the server so they show before hydration. */
  readonly initial?: readonly NotificationInput[];
  /** Which corner: top or bottom, on the inline end side. */
  readonly placement?: 'top' | 'bottom';
}

/**
 * The notification area of docs/PRODUCT.md §2: success-styled toasts in a polite live
 * region, each with a close button named "Close".
 */
export default function Toaster({ initial = [], placement = 'top' }: ToasterProps) {
  const notifications = useStore($notifications);
  const [serverToasts] = useState(() => initial.map(toNotification));
  const hydrated = useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );

  useEffect(() => {
    exposeNotificationsGlobally(window);
    // The store owns the server's toasts from now on (closing, timers).
    for (const toast of serverToasts) adoptNotification(toast);
  }, [serverToasts]);

  // Until hydration is done the markup must match the server's exactly.
  const shown = hydrated ? notifications : serverToasts;
  return (
    <section className={styles['toaster']} data-placement={placement} aria-label="Notifications">
      <div role="status" aria-live="polite">
        <ol className={styles['list']}>
          {shown.map((toast) => (
            <li key={toast.id} className={styles['toast']} data-type={toast.type}>
              <svg className={styles['icon']} viewBox="0 0 20 20" aria-hidden="true">
                <path d="M8 13.2 4.8 10l-1.1 1.1L8 15.4l8.3-8.3-1.1-1.1z" />
              </svg>
              <p className={styles['message']}>{toast.message}</p>
              <button
                type="button"
                className={styles['close']}
                onClick={() => {
                  closeNotification(toast.id);
                }}
              >
                <span className="visually-hidden">Close</span>
                <svg viewBox="0 0 20 20" aria-hidden="true">
                  <path d="M5.5 4.4 4.4 5.5 8.9 10l-4.5 4.5 1.1 1.1 4.5-4.5 4.5 4.5 1.1-1.1-4.5-4.5 4.5-4.5-1.1-1.1-4.5 4.5z" />
                </svg>
              </button>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const neverChanges = () => () => undefined;

let serverId = 0;
function toNotification({
  message,
  type = 'success',
  autoDismiss = false,
}: NotificationInput): Notification {
  serverId += 1;
  return { id: `server-${serverId}`, message, type, autoDismiss };
}
