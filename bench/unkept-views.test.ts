import { describe, expect, it } from 'vitest';
import { unkeptViews } from './unkept-views';

describe('unkeptViews', () => {
  it('gives each view an address of its own', () => {
    const unkept = unkeptViews();

    expect([unkept('/dashboard'), unkept('/dashboard'), unkept('/requests')]).toEqual([
      '/dashboard?view=1',
      '/dashboard?view=2',
      '/requests?view=3',
    ]);
  });

  it('keeps the query an address already has', () => {
    expect(unkeptViews()('/requests?tab=Closed')).toBe('/requests?tab=Closed&view=1');
  });
});
