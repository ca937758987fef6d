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

  it('draws an icon for each request category', () => {
    const categories = ['home', 'travel', 'health', 'finance', 'family', 'errands'] as const;
    const shapes = categories.map((name) => {
      const { container } = render(<Icon name={name} />);
      return container.querySelector('path')?.getAttribute('d') ?? '';
    });
    expect(shapes.every((shape) => shape.startsWith('M'))).toBe(true);
    expect(new Set(shapes).size).toBe(categories.length);
  });
});
