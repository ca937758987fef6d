// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Icon } from './Icon';

describe('Icon', () => {
  afterEach(cleanup);

  it('is hidden from assistive technology and never takes focus', () => {
    const { container } = render(<Icon name="warning" />);
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.getAttribute('focusable')).toBe('false');
  });

  it('draws the named shape', () => {
    const { container } = render(<Icon name="check" />);
    expect(container.querySelector('path')?.getAttribute('d')).toMatch(/^M9 16\.2/);
  });

  it('draws a shape the caller gives', () => {
    const { container } = render(<Icon path="M0 0h24v24H0Z" />);
    expect(container.querySelector('path')?.getAttribute('d')).toBe('M0 0h24v24H0Z');
  });
});
