// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tabs, type TabItem } from './Tabs';

const TABS: TabItem[] = [
  { label: 'Open requests', content: 'Open list' },
  { label: 'In progress', content: 'Progress list' },
  { label: 'Done & closed', content: 'Done list' },
];

function swipe(panel: HTMLElement, deltaX: number, deltaY = 0) {
  fireEvent.touchStart(panel, { touches: [{ clientX: 100, clientY: 100 }] });
  fireEvent.touchEnd(panel, {
    touches: [],
    changedTouches: [{ clientX: 100 + deltaX, clientY: 100 + deltaY }],
  });
}

describe('Tabs', () => {
  beforeEach(() => {
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('activates the first tab by default', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    const first = screen.getByRole('tab', { name: 'Open requests' });
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(first.dataset['state']).toBe('active');
    expect(screen.getByRole('tabpanel', { name: 'Open requests' }).textContent).toBe('Open list');
  });

  it('gives each tab its label with non-word characters as underscores for a value', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.dataset['value'])).toEqual([
      'Open_requests',
      'In_progress',
      'Done___closed',
    ]);
  });

  it('activates a tab on click and reports its value', () => {
    const onValueChange = vi.fn();
    render(<Tabs label="Requests" tabs={TABS} onValueChange={onValueChange} />);
    fireEvent.click(screen.getByRole('tab', { name: 'In progress' }));
    expect(screen.getByRole('tab', { name: 'In progress' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByRole('tabpanel').textContent).toBe('Progress list');
    expect(onValueChange).toHaveBeenCalledWith('In_progress');
  });

  it('keeps only the active tab in the tab order', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
  });

  it('moves and activates with the arrow keys, wrapping around', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    const first = screen.getByRole('tab', { name: 'Open requests' });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowLeft' });
    const last = screen.getByRole('tab', { name: 'Done & closed' });
    expect(document.activeElement).toBe(last);
    expect(last.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(last, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(first);
  });

  it('jumps with Home and End', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    const first = screen.getByRole('tab', { name: 'Open requests' });
    first.focus();
    fireEvent.keyDown(first, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Done & closed');
    fireEvent.keyDown(document.activeElement ?? first, { key: 'Home' });
    expect(document.activeElement).toBe(first);
  });

  it('only moves focus with manual activation', () => {
    render(<Tabs label="Requests" tabs={TABS} activation="manual" />);
    const first = screen.getByRole('tab', { name: 'Open requests' });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    const second = screen.getByRole('tab', { name: 'In progress' });
    expect(document.activeElement).toBe(second);
    expect(second.getAttribute('aria-selected')).toBe('false');
  });

  it('starts with the tab it is given', () => {
    render(<Tabs label="Requests" tabs={TABS} defaultValue="In_progress" />);
    expect(screen.getByRole('tabpanel').textContent).toBe('Progress list');
  });

  it('goes to the next tab on a 50 pixel swipe to the right, but not on 49', () => {
    render(<Tabs label="Requests" tabs={TABS} />);
    swipe(screen.getByRole('tabpanel'), 49);
    expect(screen.getByRole('tabpanel').textContent).toBe('Open list');
    swipe(screen.getByRole('tabpanel'), 50);
    expect(screen.getByRole('tabpanel').textContent).toBe('Progress list');
  });

  it('goes to the previous tab on a swipe to the left and stops at the first', () => {
    render(<Tabs label="Requests" tabs={TABS} defaultValue="In_progress" />);
    swipe(screen.getByRole('tabpanel'), -80);
    expect(screen.getByRole('tabpanel').textContent).toBe('Open list');
    swipe(screen.getByRole('tabpanel'), -80);
    expect(screen.getByRole('tabpanel').textContent).toBe('Open list');
  });

  it('starts its indicator 150 milliseconds after it renders', () => {
    vi.useFakeTimers();
    const { container } = render(<Tabs label="Requests" tabs={TABS} />);
    const indicator = () => container.querySelector('[aria-hidden="true"][data-ready]');
    act(() => {
      vi.advanceTimersByTime(149);
    });
    expect(indicator()).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(indicator()).not.toBeNull();
  });
});
