// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { $user, countNewRequest } from '../../stores/user';
import RequestCount, { requestCountSentence } from './RequestCount';

afterEach(() => {
  cleanup();
  $user.set(null);
});

describe('requestCountSentence', () => {
  it('says so when the member has made no request yet', () => {
    expect(requestCountSentence(0)).toBe('You have not made any requests yet.');
  });

  it('counts one request in the singular and more in the plural', () => {
    expect(requestCountSentence(1)).toBe('You have 1 request.');
    expect(requestCountSentence(12)).toBe('You have 12 requests.');
  });
});

describe('RequestCount', () => {
  it('shows the server’s count, then one more the moment a request is made', () => {
    render(<RequestCount requestCount={2} />);
    expect(screen.getByText('You have 2 requests.')).toBeTruthy();
    act(() => {
      countNewRequest();
    });
    expect(screen.getByText('You have 3 requests.')).toBeTruthy();
  });
});
