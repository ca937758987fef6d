import { describe, expect, it } from 'vitest';
import {
  isOpenRequestStatus,
  isRequestStatus,
  requestStatusLabel,
  requestStatuses,
} from './request-status';

describe('request statuses', () => {
  it('reads each status the way the member sees it', () => {
    expect(requestStatuses.map(requestStatusLabel)).toEqual([
      'Submitted',
      'In progress',
      'Waiting on you',
      'Completed',
      'Cancelled',
    ]);
  });

  it('counts submitted, in progress and waiting on the member as open, the rest as closed', () => {
    expect(requestStatuses.filter(isOpenRequestStatus)).toEqual([
      'submitted',
      'in_progress',
      'waiting_on_member',
    ]);
  });

  it('recognises only the five statuses of the contract', () => {
    expect(isRequestStatus('waiting_on_member')).toBe(true);
    expect(isRequestStatus('Waiting on you')).toBe(false);
    expect(isRequestStatus('archived')).toBe(false);
  });
});
