import { afterEach, describe, expect, it } from 'vitest';
import { $user, countNewRequest, seedUser } from './user';

afterEach(() => {
  $user.set(null);
});

describe('$user', () => {
  it('starts empty until an island seeds it with the server’s user', () => {
    expect($user.get()).toBeNull();
    seedUser({ requestCount: 3 });
    expect($user.get()).toEqual({ requestCount: 3 });
  });

  it('keeps the first seed, so a later island cannot undo a request counted locally', () => {
    seedUser({ requestCount: 3 });
    countNewRequest();
    seedUser({ requestCount: 3 });
    expect($user.get()).toEqual({ requestCount: 4 });
  });

  it('counts a new request at once', () => {
    seedUser({ requestCount: 0 });
    countNewRequest();
    countNewRequest();
    expect($user.get()?.requestCount).toBe(2);
  });

  it('counts nothing before it knows the member', () => {
    countNewRequest();
    expect($user.get()).toBeNull();
  });
});
