// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Ripple } from './Ripple';

describe('Ripple', () => {
  afterEach(() => {
    cleanup();
  });

  it('is a surface hidden from assistive technology', () => {
    const { getByRole } = render(
      <button type="button">
        Press <Ripple />
      </button>,
    );
    const button = getByRole('button', { name: 'Press' });
    expect(button.querySelector('span[aria-hidden="true"]')).not.toBeNull();
  });

  it('draws nothing while its host is disabled', () => {
    const { getByRole } = render(
      <button type="button" disabled>
        Press <Ripple disabled />
      </button>,
    );
    expect(getByRole('button').querySelector('span[aria-hidden="true"]')).toBeNull();
  });
});
