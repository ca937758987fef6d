// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Text } from './Text';

describe('Text', () => {
  afterEach(cleanup);

  it('is a medium paragraph by default', () => {
    render(<Text>Hello</Text>);
    const text = screen.getByText('Hello');
    expect(text.tagName).toBe('P');
    expect(text.dataset['size']).toBe('md');
    expect(text.hasAttribute('data-bold')).toBe(false);
    expect(text.hasAttribute('data-italic')).toBe(false);
  });

  it('carries its size, weight and slant as data attributes', () => {
    render(
      <Text size="sm" bold italic>
        Fine print
      </Text>,
    );
    const text = screen.getByText('Fine print');
    expect(text.dataset['size']).toBe('sm');
    expect(text.hasAttribute('data-bold')).toBe(true);
    expect(text.hasAttribute('data-italic')).toBe(true);
  });

  it('renders the element it is asked for', () => {
    render(
      <Text as="span" size="lg">
        Inline
      </Text>,
    );
    expect(screen.getByText('Inline').tagName).toBe('SPAN');
  });
});
