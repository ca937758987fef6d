import { describe, expect, it } from 'vitest';
import {
  INDICATOR_DELAY_MS,
  SWIPE_THRESHOLD_PX,
  tabAfterKey,
  tabAfterSwipe,
  tabScrollStep,
  tabValue,
} from './tab-rules';

describe('tabValue', () => {
  it('replaces every non-word character of the label with an underscore', () => {
    expect(tabValue('Open requests')).toBe('Open_requests');
    expect(tabValue('Life & home')).toBe('Life___home');
    expect(tabValue('Q&A: 2024-25')).toBe('Q_A__2024_25');
  });

  it('keeps letters, digits and underscores', () => {
    expect(tabValue('step_2')).toBe('step_2');
  });
});

describe('tabAfterSwipe', () => {
  it('needs at least 50 pixels', () => {
    expect(SWIPE_THRESHOLD_PX).toBe(50);
    expect(tabAfterSwipe(1, 3, 49, 0)).toBe(1);
    expect(tabAfterSwipe(1, 3, -49, 0)).toBe(1);
  });

  it('goes to the next tab on a swipe to the right', () => {
    expect(tabAfterSwipe(1, 3, 50, 0)).toBe(2);
  });

  it('goes to the previous tab on a swipe to the left', () => {
    expect(tabAfterSwipe(1, 3, -50, 0)).toBe(0);
  });

  it('stops at either end', () => {
    expect(tabAfterSwipe(2, 3, 200, 0)).toBe(2);
    expect(tabAfterSwipe(0, 3, -200, 0)).toBe(0);
  });

  it('ignores a swipe that is more vertical than horizontal', () => {
    expect(tabAfterSwipe(1, 3, 60, 80)).toBe(1);
  });
});

describe('tabAfterKey', () => {
  it('moves right and left, wrapping around', () => {
    expect(tabAfterKey('ArrowRight', 0, 3)).toBe(1);
    expect(tabAfterKey('ArrowRight', 2, 3)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 3)).toBe(2);
  });

  it('jumps to the first and the last tab with Home and End', () => {
    expect(tabAfterKey('Home', 2, 3)).toBe(0);
    expect(tabAfterKey('End', 0, 3)).toBe(2);
  });

  it('leaves other keys alone', () => {
    expect(tabAfterKey('ArrowDown', 0, 3)).toBeNull();
    expect(tabAfterKey('a', 0, 3)).toBeNull();
  });
});

describe('tab list scrolling and indicator', () => {
  it('scrolls by 80 percent of the visible width', () => {
    expect(tabScrollStep(500)).toBe(400);
    expect(tabScrollStep(333)).toBe(266);
  });

  it('starts the indicator after 150 milliseconds', () => {
    expect(INDICATOR_DELAY_MS).toBe(150);
  });
});
