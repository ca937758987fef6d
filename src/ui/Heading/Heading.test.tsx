// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Heading, type HeadingLevel } from './Heading';

describe('Heading', () => {
  afterEach(cleanup);

  it.each([1, 2, 3, 4, 5, 6] as HeadingLevel[])('renders a level %i heading', (level) => {
    render(<Heading level={level}>Title</Heading>);
    expect(screen.getByRole('heading', { level, name: 'Title' }).tagName).toBe(`H${level}`);
  });

  it('is extra large at level 1 and large below unless told', () => {
    render(
      <>
        <Heading level={1}>Page</Heading>
        <Heading level={2}>Section</Heading>
      </>,
    );
    expect(screen.getByRole('heading', { level: 1 }).dataset['size']).toBe('xl');
    expect(screen.getByRole('heading', { level: 2 }).dataset['size']).toBe('lg');
  });

  it('takes the size it is given whatever its level', () => {
    render(
      <Heading level={3} size="xl">
        Big
      </Heading>,
    );
    expect(screen.getByRole('heading').dataset['size']).toBe('xl');
  });
});
