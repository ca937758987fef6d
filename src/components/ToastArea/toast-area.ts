import {
  $notifications,
  adoptNotification,
  closeNotification,
  exposeNotificationsGlobally,
  type Notification,
  type NotificationType,
} from '../../stores/notifications';

/**
 * Brings a server-rendered toast area to life: its toasts go to `$notifications` (which closes
 * them, and dismisses those that asked after 10 seconds), the list shows whatever the store holds
 * from then on, each close button closes its toast, and `window.portalNotifications` lets any
 * script send one.
 */
export function startToastArea(area: HTMLElement): () => void {
  const list = area.querySelector('ol');
  const template = area.querySelector('template');
  if (!list || !template) return () => undefined;

  let serverId = 0;
  for (const item of Array.from(list.children)) {
    if (!(item instanceof HTMLElement)) continue;
    serverId += 1;
    const toast: Notification = {
      id: `server-${serverId}`,
      message: item.querySelector('p')?.textContent ?? '',
      // Written by ToastArea.astro from a NotificationType.
      type: (item.dataset['type'] ?? 'success') as NotificationType,
      autoDismiss: 'autoDismiss' in item.dataset,
    };
    item.dataset['toastId'] = toast.id;
    adoptNotification(toast);
  }

  const render = (notifications: readonly Notification[]) => {
    const shown = new Set(notifications.map(({ id }) => id));
    for (const item of Array.from(list.children)) {
      if (item instanceof HTMLElement && !shown.has(item.dataset['toastId'] ?? '')) item.remove();
    }
    const present = new Set(
      Array.from(list.children, (item) => (item as HTMLElement).dataset['toastId']),
    );
    for (const toast of notifications) {
      if (present.has(toast.id)) continue;
      const item = template.content.firstElementChild?.cloneNode(true);
      if (!(item instanceof HTMLElement)) continue;
      item.dataset['toastId'] = toast.id;
      item.dataset['type'] = toast.type;
      const message = item.querySelector('p');
      if (message) message.textContent = toast.message;
      list.append(item);
    }
  };
  const stopRendering = $notifications.subscribe(render);

  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element && event.target.closest('[data-close-toast]');
    const item = button && button.closest<HTMLElement>('[data-toast-id]');
    if (item) closeNotification(item.dataset['toastId'] ?? '');
  };
  list.addEventListener('click', onClick);
  exposeNotificationsGlobally(window);

  return () => {
    stopRendering();
    list.removeEventListener('click', onClick);
  };
}
