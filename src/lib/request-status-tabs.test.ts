import { describe, expect, it } from 'vitest';
import {
  requestStatusTabFrom,
  requestStatusTabSearch,
  requestStatusTabs,
} from './request-status-tabs';

describe('request status tabs', () => {
  it('finds a tab by its value in the address', () => {
    expect(requestStatusTabFrom('Closed').filter).toBe('closed');
    expect(requestStatusTabFrom('Open').filter).toBe('open');
  });

  it('falls back to the open requests for a missing or unknown tab', () => {
    expect(requestStatusTabFrom(null)).toBe(requestStatusTabs[0]);
    expect(requestStatusTabFrom('closed')).toBe(requestStatusTabs[0]);
    expect(requestStatusTabFrom('Archived')).toBe(requestStatusTabs[0]);
  });

  it('writes the tab always and the position unless it is the first page', () => {
    const [open, closed] = requestStatusTabs;
    expect(requestStatusTabSearch(open)).toBe('?tab=Open');
    expect(requestStatusTabSearch(closed, { page: 1 })).toBe('?tab=Closed');
    expect(requestStatusTabSearch(closed, { page: 3 })).toBe('?tab=Closed&page=3');
    expect(requestStatusTabSearch(closed, { after: 'c1' })).toBe('?tab=Closed&after=c1');
  });
});
