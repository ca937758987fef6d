// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Message } from './Message';

describe('Message', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('is a polite info status by default', () => {
    render(<Message>Saved for later</Message>);
    const status = screen.getByRole('status');
    expect(status.dataset['severity']).toBe('info');
    expect(status.dataset['state']).toBe('open');
  });

  it('is an alert when it reports an error or a warning', () => {
    render(
      <>
        <Message severity="error">Broken</Message>
        <Message severity="warning">Careful</Message>
      </>,
    );
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });

  it('has no close button unless closable', () => {
    render(<Message>Hello</Message>);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('fades out for 0.3 seconds and then reports that it closed when "Close" is pressed', () => {
    const onClose = vi.fn();
    render(
      <Message closable onClose={onClose}>
        Hello
      </Message>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('status').dataset['state']).toBe('closed');
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(onClose).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('hides itself after its lifetime', () => {
    const onClose = vi.fn();
    render(
      <Message lifetime={2000} onClose={onClose}>
        Done
      </Message>,
    );
    act(() => {
      vi.advanceTimersByTime(1999);
    });
    expect(screen.getByRole('status').dataset['state']).toBe('open');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('status').dataset['state']).toBe('closed');
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(screen.queryByRole('status')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays without a lifetime', () => {
    render(<Message severity="success">Kept</Message>);
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByRole('status').textContent).toContain('Kept');
  });
});
