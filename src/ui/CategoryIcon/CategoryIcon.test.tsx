// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CategoryIcon, type CategoryIconName } from './CategoryIcon';

describe('CategoryIcon', () => {
  afterEach(cleanup);

  it('draws a shape of its own for each request category', () => {
    const categories: CategoryIconName[] = [
      'home',
      'travel',
      'health',
      'finance',
      'family',
      'errands',
    ];
    const shapes = categories.map((icon) => {
      const { container } = render(<CategoryIcon icon={icon} />);
      return container.querySelector('path')?.getAttribute('d') ?? '';
    });
    expect(shapes.every((shape) => shape.startsWith('M'))).toBe(true);
    expect(new Set(shapes).size).toBe(categories.length);
  });

  it('is decorative, like every icon of the kit', () => {
    const { container } = render(<CategoryIcon icon="travel" />);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });
});
