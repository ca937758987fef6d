// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $notifications, sendNotification, toastAutoDismissMs } from '../../stores/notifications';
import { startToastArea } from './toast-area';

/** The markup ToastArea.astro renders, with the given toasts from the server. */
function toastArea(serverToasts: { message: string; autoDismiss?: boolean }[]): HTMLElement {
  const toast = (message: string, autoDismiss = false) =>
    `<li data-type="success"${autoDismiss ? ' data-auto-dismiss' : ''}><p>${message}</p>` +
    '<button type="button" data-close-toast><span>Close</span></button></li>';
  document.body.innerHTML =
    '<section data-toast-area><div role="status"><ol>' +
    serverToasts.map(({ message, autoDismiss }) => toast(message, autoDismiss)).join('') +
    `</ol></div><template>${toast('')}</template></section>`;
  const area = document.querySelector<HTMLElement>('[data-toast-area]');
  if (!area) throw new Error('no toast area');
  return area;
}

const shownMessages = () =>
  Array.from(document.querySelectorAll('ol > li p'), (message) => message.textContent);

const closeButtonOf = (message: string) => {
  const item = Array.from(document.querySelectorAll('ol > li')).find(
    (candidate) => candidate.querySelector('p')?.textContent === message,
  );
  const button = item?.querySelector<HTMLButtonElement>('[data-close-toast]');
  if (!button) throw new Error(`no toast "${message}"`);
  return button;
};

describe('startToastArea', () => {
  let stop = () => {};

  beforeEach(() => {
    vi.useFakeTimers();
    $notifications.set([]);
  });

  afterEach(() => {
    stop();
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('keeps the toasts the server rendered and hands them to the store', () => {
    stop = startToastArea(toastArea([{ message: 'You have been signed out.' }]));

    expect(shownMessages()).toEqual(['You have been signed out.']);
    expect($notifications.get().map(({ message }) => message)).toEqual([
      'You have been signed out.',
    ]);
  });

  it('shows a toast sent afterwards, through the store or the global handle', () => {
    stop = startToastArea(toastArea([]));

    sendNotification({ message: 'Your request has been sent.' });
    window.portalNotifications?.send({ message: 'Saved.' });

    expect(shownMessages()).toEqual(['Your request has been sent.', 'Saved.']);
  });

  it('closes a toast with its close button, and only that one', () => {
    stop = startToastArea(toastArea([{ message: 'First' }, { message: 'Second' }]));

    closeButtonOf('First').click();

    expect(shownMessages()).toEqual(['Second']);
    expect($notifications.get()).toHaveLength(1);
  });

  it('dismisses a toast that asked for it after 10 seconds, and keeps the others', () => {
    stop = startToastArea(
      toastArea([{ message: 'Stays' }, { message: 'Goes', autoDismiss: true }]),
    );
    sendNotification({ message: 'Goes too', autoDismiss: true });

    vi.advanceTimersByTime(toastAutoDismissMs - 1);
    expect(shownMessages()).toEqual(['Stays', 'Goes', 'Goes too']);
    vi.advanceTimersByTime(1);
    expect(shownMessages()).toEqual(['Stays']);
  });

  it('puts a message in as text, never as markup', () => {
    stop = startToastArea(toastArea([]));

    sendNotification({ message: '<img src=x onerror=alert(1)>' });

    expect(document.querySelector('ol img')).toBeNull();
    expect(shownMessages()).toEqual(['<img src=x onerror=alert(1)>']);
  });
});
