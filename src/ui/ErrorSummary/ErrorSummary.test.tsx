// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSummary } from './ErrorSummary';

describe('ErrorSummary', () => {
  beforeAll(() => {
    Element.prototype.scrollIntoView = () => undefined;
  });
  afterEach(cleanup);

  it('renders nothing when there are no errors', () => {
    const { container } = render(<ErrorSummary errors={[]} />);
    expect(container.innerHTML).toBe('');
  });

  it('is an alert titled "There is a problem" by default', () => {
    render(<ErrorSummary errors={[{ message: 'Something went wrong' }]} />);
    const alert = screen.getByRole('alert', { name: 'There is a problem' });
    expect(screen.getByRole('heading', { name: 'There is a problem' })).toBeDefined();
    expect(alert.textContent).toContain('Something went wrong');
  });

  it('uses the title it is given', () => {
    render(<ErrorSummary title="Check your answers" errors={[{ message: 'x' }]} />);
    expect(screen.getByRole('heading', { name: 'Check your answers' })).toBeDefined();
  });

  it('links each error to its field', () => {
    render(<ErrorSummary errors={[{ fieldId: 'field-email', message: 'Enter an email' }]} />);
    expect(screen.getByRole('link', { name: 'Enter an email' }).getAttribute('href')).toBe(
      '#field-email',
    );
  });

  it('focuses the field when its link is followed', () => {
    render(
      <>
        <ErrorSummary errors={[{ fieldId: 'field-email', message: 'Enter an email' }]} />
        <input id="field-email" aria-label="Email" />
      </>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Enter an email' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('takes focus when it appears', () => {
    render(<ErrorSummary errors={[{ message: 'First' }]} />);
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('takes focus again when its errors change', () => {
    const { rerender } = render(
      <>
        <ErrorSummary errors={[{ message: 'First' }]} />
        <input aria-label="Other" />
      </>,
    );
    screen.getByLabelText('Other').focus();
    rerender(
      <>
        <ErrorSummary errors={[{ message: 'Second' }]} />
        <input aria-label="Other" />
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('leaves focus alone when rendered again with the same errors', () => {
    const errors = [{ message: 'Same' }];
    const { rerender } = render(
      <>
        <ErrorSummary errors={errors} />
        <input aria-label="Other" />
      </>,
    );
    screen.getByLabelText('Other').focus();
    rerender(
      <>
        <ErrorSummary errors={[{ message: 'Same' }]} />
        <input aria-label="Other" />
      </>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Other'));
  });
});
