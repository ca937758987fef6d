import { atom } from 'nanostores';

/** A toast asked to dismiss itself goes after 10 seconds (docs/PRODUCT.md §9). */
export const toastAutoDismissMs = 10_000;

/**
 * Kept for callers, though every toast is success-styled whatever its type (docs/PRODUCT.md §3).
 */
export type NotificationType = 'success' | 'info' | 'error';

export interface Notification {
  readonly id: string;
  readonly message: string;
  readonly type: NotificationType;
  readonly autoDismiss: boolean;
}

export interface NotificationInput {
  readonly message: string;
  readonly type?: NotificationType;
  readonly autoDismiss?: boolean;
}

/** The toasts on screen, oldest first. */
export const $notifications = atom<readonly Notification[]>([]);

const timers = new Map<string, ReturnType<typeof setTimeout>>();

// getRandomValues, unlike randomUUID, also works on plain-http pages (e.g. a LAN address in development).
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

/** Shows a toast; returns its id. With `autoDismiss` it closes itself after 10 seconds. */
export function sendNotification({
  message,
  type = 'success',
  autoDismiss = false,
}: NotificationInput): string {
  const notification: Notification = { id: randomId(), message, type, autoDismiss };
  adoptNotification(notification);
  return notification.id;
}

/**
 * Takes over a toast made elsewhere (the server rendered it before hydration),
 * keeping its id. Adopting the same id twice has no effect.
 */
export function adoptNotification(notification: Notification): void {
  if ($notifications.get().some(({ id }) => id === notification.id)) return;
  $notifications.set([...$notifications.get(), notification]);
  if (notification.autoDismiss) {
    timers.set(
      notification.id,
      setTimeout(() => {
        closeNotification(notification.id);
      }, toastAutoDismissMs),
    );
  }
}

/** Removes a toast (its close button, or its timer). Unknown ids are ignored. */
export function closeNotification(id: string): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  $notifications.set($notifications.get().filter((notification) => notification.id !== id));
}

/** The global handle, for code outside the islands. */
interface NotificationsHandle {
  readonly send: typeof sendNotification;
  readonly close: typeof closeNotification;
  readonly list: typeof $notifications;
}

declare global {
  interface Window {
    portalNotifications?: NotificationsHandle;
  }
}

/** Makes the store reachable as `window.portalNotifications`. */
export function exposeNotificationsGlobally(target: Window): void {
  target.portalNotifications = {
    send: sendNotification,
    close: closeNotification,
    list: $notifications,
  };
}
