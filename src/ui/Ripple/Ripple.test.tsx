// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ripple } from './Ripple';

function stubReducedMotion(reduced: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: reduced && query.includes('reduce'), media: query })),
  );
}

describe('Ripple', () => {
  beforeEach(() => {
    stubReducedMotion(false);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('is hidden from assistive technology', () => {
    const { container } = render(
      <button type="button">
        Press <Ripple />
      </button>,
    );
    expect(container.querySelector('[aria-hidden="true"]')).not.toBeNull();
  });

  it('draws a wave when its parent is pressed', () => {
    const { container, getByRole } = render(
      <button type="button">
        Press <Ripple />
      </button>,
    );
    fireEvent.pointerDown(getByRole('button'), { button: 0, clientX: 5, clientY: 5 });
    const surface = container.querySelector('[aria-hidden="true"]');
    // jsdom has no Web Animations, so the wave is removed at once; what matters is that nothing threw.
    expect(surface?.childElementCount).toBe(0);
  });

  it('draws nothing when the user prefers reduced motion', () => {
    stubReducedMotion(true);
    const animate = vi.fn();
    HTMLElement.prototype.animate = animate;
    const { getByRole } = render(
      <button type="button">
        Press <Ripple />
      </button>,
    );
    fireEvent.pointerDown(getByRole('button'), { button: 0 });
    expect(animate).not.toHaveBeenCalled();
    Reflect.deleteProperty(HTMLElement.prototype, 'animate');
  });

  it('animates for 401 milliseconds when motion is allowed', () => {
    const animation = { onfinish: null, oncancel: null };
    const animate = vi.fn(() => animation);
    HTMLElement.prototype.animate = animate as unknown as typeof HTMLElement.prototype.animate;
    const { getByRole } = render(
      <button type="button">
        Press <Ripple />
      </button>,
    );
    fireEvent.pointerDown(getByRole('button'), { button: 0 });
    expect(animate).toHaveBeenCalledWith(
      expect.any(Array),
      expect.objectContaining({ duration: 401 }),
    );
    Reflect.deleteProperty(HTMLElement.prototype, 'animate');
  });
});
