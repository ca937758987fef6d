import { describe, expect, it } from 'vitest';
import { relyingParty } from './passkey-ceremonies.ts';

describe('relyingParty', () => {
  it('is the host of the public origin, with that origin', () => {
    expect(relyingParty('https://portal.example.com', 'Member Concierge')).toEqual({
      id: 'portal.example.com',
      name: 'Member Concierge',
      origin: 'https://portal.example.com',
    });
  });

  it('serves a loopback address as localhost on the same port, as browsers refuse IP addresses', () => {
    expect(relyingParty('http://127.0.0.1:4321', 'Member Concierge')).toMatchObject({
      id: 'localhost',
      origin: 'http://localhost:4321',
    });
    expect(relyingParty('http://[::1]:4321', 'Member Concierge')).toMatchObject({
      id: 'localhost',
      origin: 'http://localhost:4321',
    });
  });

  it('keeps localhost as it is', () => {
    expect(relyingParty('http://localhost:4321', 'Member Concierge').origin).toBe(
      'http://localhost:4321',
    );
  });
});
