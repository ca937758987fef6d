// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import NavigationMenu, { type NavigationLink } from './NavigationMenu';

const links: NavigationLink[] = [
  { href: '/dashboard', label: 'Dashboard', current: false },
  { href: '/requests', label: 'Requests', current: true },
];

/** jsdom has no modal dialogs; Chromium's are driven by tests/e2e/navigation.spec.ts. */
function installDialogStandIn() {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.querySelector<HTMLElement>('a[href], button')?.focus();
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

describe('NavigationMenu', () => {
  beforeAll(installDialogStandIn);
  afterEach(cleanup);

  it('is a link to the plain navigation until it hydrates', () => {
    const html = renderToString(<NavigationMenu links={links} fallbackId="site-navigation" />);
    expect(html).toMatch(/^<nav aria-label="Main"[^>]*><a [^>]*href="#site-navigation"/);
    expect(html).not.toContain('<dialog');
  });

  it('opens the links in a drawer, the current page marked, and closes it again', () => {
    render(<NavigationMenu links={links} fallbackId="site-navigation" />);
    const button = screen.getByRole('button', { name: 'Menu' });
    button.focus();
    fireEvent.click(button);
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(drawer.contains(document.activeElement)).toBe(true);
    const navigation = screen.getByRole('navigation', { name: 'Main' });
    expect(navigation.contains(drawer)).toBe(true);
    expect(
      within(navigation).getByRole('link', { name: 'Requests' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(
      within(navigation).getByRole('link', { name: 'Dashboard' }).hasAttribute('aria-current'),
    ).toBe(false);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Close menu' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
