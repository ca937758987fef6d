// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Drawer, type DrawerProps } from './Drawer';

function Harness(props: Partial<DrawerProps>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Open menu
      </button>
      <Drawer
        title="Menu"
        {...props}
        open={open}
        onClose={() => {
          props.onClose?.();
          setOpen(false);
        }}
      >
        <a href="/dashboard">Dashboard</a>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
          }}
        >
          Done
        </button>
      </Drawer>
    </>
  );
}

function dialog() {
  const element = document.querySelector('dialog');
  if (!element) throw new Error('no dialog');
  return element;
}

function openDrawer() {
  const opener = screen.getByRole('button', { name: 'Open menu' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

/**
 * jsdom has no modal dialogs: just enough of one (open state, focus in, close event) to drive the
 * component. Chromium's real dialog is covered by tests/e2e/kit-drawer.spec.ts.
 */
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

describe('Drawer', () => {
  beforeAll(installDialogStandIn);
  afterEach(cleanup);

  it('is a closed dialog named by its title until opened', () => {
    render(<Harness />);
    expect(dialog().open).toBe(false);
    expect(dialog().dataset['state']).toBe('closed');
    expect(dialog().getAttribute('aria-labelledby')).toBe(
      screen.getByText('Menu', { selector: 'h2' }).id,
    );
  });

  it('defaults to a non-dismissible panel on the right', () => {
    render(<Harness />);
    expect(dialog().dataset['position']).toBe('right');
    expect(dialog().dataset['variant']).toBe('panel');
    expect(dialog().hasAttribute('data-dismissible')).toBe(false);
    expect(dialog().getAttribute('closedby')).toBe('none');
  });

  it('opens as a modal and moves focus inside', () => {
    render(<Harness />);
    openDrawer();
    expect(dialog().open).toBe(true);
    expect(dialog().dataset['state']).toBe('open');
    expect(dialog().contains(document.activeElement)).toBe(true);
  });

  it('returns focus to the opener when it closes', () => {
    render(<Harness />);
    const opener = openDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(dialog().open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('has a close button only when dismissible', () => {
    const { unmount } = render(<Harness />);
    openDrawer();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    unmount();
    render(<Harness dismissible />);
    openDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialog().open).toBe(false);
  });

  it('ignores Escape unless dismissible', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    openDrawer();
    const cancel = new Event('cancel', { cancelable: true });
    dialog().dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    expect(dialog().open).toBe(true);
  });

  it('closes on Escape when dismissible', () => {
    render(<Harness dismissible />);
    openDrawer();
    act(() => {
      dialog().dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    expect(dialog().open).toBe(false);
  });

  it('closes on a click outside only when dismissible', () => {
    const { unmount } = render(<Harness />);
    openDrawer();
    fireEvent.pointerDown(dialog());
    fireEvent.click(dialog());
    expect(dialog().open).toBe(true);
    unmount();
    render(<Harness dismissible />);
    openDrawer();
    fireEvent.pointerDown(dialog());
    fireEvent.click(dialog());
    expect(dialog().open).toBe(false);
  });

  it('does not close on a click inside', () => {
    render(<Harness dismissible />);
    openDrawer();
    const inside = screen.getByText('Menu', { selector: 'h2' });
    fireEvent.pointerDown(inside);
    fireEvent.click(inside);
    expect(dialog().open).toBe(true);
  });

  it('exposes its position, variant, scrolling and padding as data attributes', () => {
    render(<Harness position="left" variant="nav" scrollable={false} fullBleed />);
    expect(dialog().dataset['position']).toBe('left');
    expect(dialog().dataset['variant']).toBe('nav');
    const body = screen.getByRole('link', { name: 'Dashboard', hidden: true }).parentElement;
    expect(body?.hasAttribute('data-scrollable')).toBe(false);
    expect(body?.hasAttribute('data-full-bleed')).toBe(true);
  });
});
