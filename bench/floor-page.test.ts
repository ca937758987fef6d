import { describe, expect, it } from 'vitest';
import { floorHeaders, floorPageHtml, startFloorPage } from './floor-page';

describe('floorHeaders', () => {
  it('copies the headers that change how the browser loads a page, the opener policy among them', () => {
    const page = new Headers({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Content-Security-Policy': "default-src 'self'",
      'Cache-Control': 'private, no-store',
      'X-Frame-Options': 'DENY',
    });
    expect(floorHeaders(page)).toEqual({
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': "default-src 'self'",
      'cache-control': 'private, no-store',
      'x-frame-options': 'DENY',
    });
  });

  it('leaves out what describes one answer: its body, its connection, its cookies', () => {
    const page = new Headers({
      'Content-Encoding': 'br',
      'Content-Type': 'text/html',
      'Set-Cookie': 'XSRF-TOKEN=abc; Path=/',
      'Transfer-Encoding': 'chunked',
      Vary: 'Accept-Encoding',
      'X-Request-Id': '1',
    });
    expect(floorHeaders(page)).toEqual({});
  });
});

describe('startFloorPage', () => {
  it('serves the heading with the headers it was given', async () => {
    const floor = await startFloorPage({ 'cross-origin-opener-policy': 'same-origin' });
    try {
      const response = await fetch(floor.url);
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toBe(floorPageHtml);
    } finally {
      await floor.stop();
    }
  });
});
