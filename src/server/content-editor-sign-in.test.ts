import { describe, expect, it } from 'vitest';
import {
  isSignInCallback,
  isThisBrowsersSignIn,
  newSignInState,
  withSignInState,
} from './content-editor-sign-in';

const toGitHub = (query: string, cookies: string[] = []) => {
  const headers = new Headers({
    location: `https://github.com/login/oauth/authorize?client_id=Iv1.app&redirect_uri=https%3A%2F%2Feditor.example%2Fapi%2Fkeystatic%2Fgithub%2Foauth%2Fcallback${query}`,
  });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 307, headers });
};

describe('the state of a GitHub sign-in to the editor', () => {
  it('is new and unguessable each time: 32 random bytes', () => {
    const state = newSignInState();
    expect(state).toMatch(/^[0-9a-f]{64}$/);
    expect(newSignInState()).not.toBe(state);
  });

  it('is given to the answer that sends the browser to GitHub, which keeps its other words', () => {
    const answer = withSignInState(toGitHub(''), 'a'.repeat(64));
    expect(answer?.status).toBe(307);
    const location = new URL(answer?.headers.get('location') ?? '');
    expect(location.searchParams.get('state')).toBe('a'.repeat(64));
    expect(location.searchParams.get('client_id')).toBe('Iv1.app');
  });

  it('takes the place of Keystatic’s own, whose cookie of where the editor was follows it', () => {
    const answer = withSignInState(
      toGitHub('&state=0123456789abcdef0123', [
        'ks-0123456789abcdef0123=branch%2Fmain%2Fsingleton%2Fterms; Path=/; HttpOnly; SameSite=Lax',
      ]),
      'b'.repeat(64),
    );
    expect(new URL(answer?.headers.get('location') ?? '').searchParams.getAll('state')).toEqual([
      'b'.repeat(64),
    ]);
    expect(answer?.headers.getSetCookie()).toEqual([
      `ks-${'b'.repeat(64)}=branch%2Fmain%2Fsingleton%2Fterms; Path=/; HttpOnly; SameSite=Lax`,
    ]);
  });

  it('leaves every other answer alone', () => {
    expect(withSignInState(new Response('{}'), 'c'.repeat(64))).toBeUndefined();
    const elsewhere = new Response(null, {
      status: 307,
      headers: { location: '/keystatic/setup' },
    });
    expect(withSignInState(elsewhere, 'c'.repeat(64))).toBeUndefined();
    const lookalike = new Response(null, {
      status: 307,
      headers: { location: 'https://github.com/login/oauth/authorize.evil.example/?x=1' },
    });
    expect(withSignInState(lookalike, 'c'.repeat(64))).toBeUndefined();
  });

  it('must come back to the callback as it left: missing, other or Keystatic’s “close” are refused', () => {
    const kept = 'd'.repeat(64);
    expect(isThisBrowsersSignIn(kept, kept)).toBe(true);
    expect(isThisBrowsersSignIn(null, kept)).toBe(false);
    expect(isThisBrowsersSignIn('', kept)).toBe(false);
    expect(isThisBrowsersSignIn('e'.repeat(64), kept)).toBe(false);
    expect(isThisBrowsersSignIn('close', kept)).toBe(false);
    expect(isThisBrowsersSignIn(kept, undefined)).toBe(false);
    expect(isThisBrowsersSignIn(kept.slice(1), kept)).toBe(false);
  });
});

describe('the callback of the editor’s GitHub sign-in', () => {
  it('is found however its path is written, as Keystatic reads it', () => {
    for (const path of [
      '/api/keystatic/github/oauth/callback',
      '/api/keystatic/github/oauth/callback/',
      '/api/keystatic//github/oauth/callback',
      '/api/keystatic/github/oauth%2Fcallback',
      '/api/keystatic/%67ithub/oauth/callback',
      '/api/keystatic/%E0%A4%A',
    ]) {
      expect(isSignInCallback(path), path).toBe(true);
    }
  });

  it('is not the editor’s other calls', () => {
    for (const path of [
      '/api/keystatic/github/login',
      '/api/keystatic/github/refresh-token',
      '/api/keystatic/github/oauth',
    ]) {
      expect(isSignInCallback(path), path).toBe(false);
    }
  });
});
