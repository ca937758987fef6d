import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a refused, dropped or timed-out connection', () => {
    expect(
      isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([withCode('connect', 'ECONNREFUSED')], 'connect')),
    ).toBe(true);
  });

  it('recognises a server that is shutting down or refuses connections', () => {
    expect(isDatabaseUnavailable(withCode('terminating connection', '57P01'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode('connection failure', '08006'))).toBe(true);
  });

  it('looks through the errors a query error wraps', () => {
    const wrapped = new Error('Failed query: select 1', {
      cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED'),
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('leaves other errors to be what they are', () => {
    expect(isDatabaseUnavailable(withCode('relation "users" does not exist', '42P01'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable('not an error')).toBe(false);
  });
});
