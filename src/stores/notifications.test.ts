import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $notifications,
  adoptNotification,
  closeNotification,
  exposeNotificationsGlobally,
  sendNotification,
  toastAutoDismissMs,
} from './notifications';

describe('the notifications store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $notifications.set([]);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds a toast with a random id, success type by default', () => {
    const id = sendNotification({ message: 'Saved' });
    expect($notifications.get()).toEqual([
      { id, message: 'Saved', type: 'success', autoDismiss: false },
    ]);
    expect(sendNotification({ message: 'Saved' })).not.toBe(id);
  });

  it('keeps a toast that was not asked to dismiss itself', () => {
    sendNotification({ message: 'Stays' });
    vi.advanceTimersByTime(toastAutoDismissMs * 3);
    expect($notifications.get()).toHaveLength(1);
  });

  it('removes an auto-dismissing toast after exactly 10 seconds', () => {
    sendNotification({ message: 'Goes', autoDismiss: true });
    vi.advanceTimersByTime(9_999);
    expect($notifications.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($notifications.get()).toHaveLength(0);
  });

  it('closes one toast by id and leaves the others', () => {
    const first = sendNotification({ message: 'One' });
    sendNotification({ message: 'Two' });
    closeNotification(first);
    expect($notifications.get().map((toast) => toast.message)).toEqual(['Two']);
  });

  it('adopts a toast made elsewhere once, keeping its id and its timer', () => {
    const made = {
      id: 'server-1',
      message: 'Signed out',
      type: 'success',
      autoDismiss: true,
    } as const;
    adoptNotification(made);
    adoptNotification(made);
    expect($notifications.get()).toEqual([made]);
    vi.advanceTimersByTime(toastAutoDismissMs);
    expect($notifications.get()).toEqual([]);
  });

  it('is reachable globally for code outside the islands', () => {
    const target = {} as Window;
    exposeNotificationsGlobally(target);
    target.portalNotifications?.send({ message: 'From afar', type: 'info' });
    expect($notifications.get()[0]).toMatchObject({ message: 'From afar', type: 'info' });
  });
});
