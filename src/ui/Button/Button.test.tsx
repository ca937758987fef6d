// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './Button';

describe('Button', () => {
  afterEach(cleanup);

  it('is a plain button that does not submit unless asked', () => {
    render(<Button>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.dataset['variant']).toBe('primary');
  });

  it('becomes a submit button when its type says so', () => {
    render(<Button type="submit">Send</Button>);
    expect(screen.getByRole('button').getAttribute('type')).toBe('submit');
  });

  it('carries its variant as a data attribute', () => {
    render(<Button variant="tertiary">Skip</Button>);
    expect(screen.getByRole('button').dataset['variant']).toBe('tertiary');
  });

  it('carries a compact size as a data attribute, and no size attribute when regular', () => {
    render(
      <>
        <Button data-size="compact">Sign out</Button>
        <Button>Save</Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Sign out' }).dataset['size']).toBe('compact');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('data-size')).toBe(false);
  });

  it('calls its click handler when pressed', () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Go</Button>);
    fireEvent.click(screen.getByRole('button'));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('says it is busy and ignores presses while loading', () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        Sign in
      </Button>,
    );
    const button = screen.getByRole('button', { name: /sign in/i });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.hasAttribute('data-loading')).toBe(true);
    expect(button).toHaveProperty('disabled', false);
    expect(button.textContent).toContain('Loading');
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('does not submit its form while loading', () => {
    const onSubmit = vi.fn((event: SubmitEvent) => {
      event.preventDefault();
    });
    render(
      <form>
        <Button type="submit" loading>
          Sign in
        </Button>
      </form>,
    );
    const form = document.querySelector('form');
    form?.addEventListener('submit', onSubmit);
    fireEvent.click(screen.getByRole('button'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits its form when not loading', () => {
    const onSubmit = vi.fn((event: SubmitEvent) => {
      event.preventDefault();
    });
    render(
      <form>
        <Button type="submit">Sign in</Button>
      </form>,
    );
    document.querySelector('form')?.addEventListener('submit', onSubmit);
    fireEvent.click(screen.getByRole('button'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('keeps its label in the accessible name while loading', () => {
    render(<Button loading>Continue</Button>);
    expect(screen.getByRole('button').textContent).toContain('Continue');
  });
});
