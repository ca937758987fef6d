// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressBar } from './ProgressBar';

describe('ProgressBar', () => {
  afterEach(cleanup);

  it('is a progress bar named by its label', () => {
    render(<ProgressBar label="Uploading report.pdf" value={10} />);
    expect(screen.getByRole('progressbar', { name: 'Uploading report.pdf' })).toBeDefined();
  });

  it('runs from 0 to 100 and rounds to a whole percent', () => {
    render(<ProgressBar label="Upload" value={41.6} />);
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('max')).toBe('100');
    expect(bar.getAttribute('value')).toBe('42');
  });

  it('never goes past either end', () => {
    render(<ProgressBar label="Upload" value={140} />);
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('100');
  });

  it('is indeterminate without a value', () => {
    const { container } = render(<ProgressBar label="Working" />);
    expect(screen.getByRole('progressbar').hasAttribute('value')).toBe(false);
    expect(container.firstElementChild?.getAttribute('data-state')).toBe('indeterminate');
  });

  it('shows the percentage when asked', () => {
    render(<ProgressBar label="Upload" value={7} showValue />);
    expect(screen.getByText('7%', { ignore: 'progress' })).toBeDefined();
  });
});
