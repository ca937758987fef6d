// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Icon } from './Icon';
import { warningShape } from './shapes';

describe('Icon', () => {
  afterEach(cleanup);

  it('is hidden from assistive technology and never takes focus', () => {
    const { container } = render(<Icon path={warningShape} />);
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    expect(svg?.getAttribute('focusable')).toBe('false');
  });

  it('draws the shape it is given', () => {
    const { container } = render(<Icon path="M0 0h24v24H0Z" />);
    expect(container.querySelector('path')?.getAttribute('d')).toBe('M0 0h24v24H0Z');
  });
});
