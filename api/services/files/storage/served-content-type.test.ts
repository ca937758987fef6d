import { describe, expect, it } from 'vitest';
import { OPAQUE_CONTENT_TYPE, servedContentType } from './served-content-type.ts';

describe('servedContentType', () => {
  it.each([
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'image/avif',
    'application/pdf',
    'text/plain',
    'text/csv',
  ])('keeps %s, which no browser runs as a script, a style or a page', (type) => {
    expect(servedContentType(type)).toBe(type);
  });

  it.each([
    'text/javascript',
    'application/javascript',
    'application/x-javascript',
    'text/ecmascript',
    'module',
    'application/json',
    'text/css',
    'text/html',
    'application/xhtml+xml',
    'image/svg+xml',
    'application/xml',
    'text/xml',
    'application/rss+xml',
    'text/xsl',
    'multipart/x-mixed-replace',
    'application/x-shockwave-flash',
    'application/wasm',
    'text/vtt',
    'application/octet-stream',
    'x-unknown/whatever',
    '',
  ])('serves %j as application/octet-stream', (type) => {
    expect(servedContentType(type)).toBe(OPAQUE_CONTENT_TYPE);
  });

  it('reads the media type whatever its case, spaces and parameters', () => {
    expect(servedContentType(' Image/PNG ')).toBe('image/png');
    expect(servedContentType('text/plain; charset=utf-8')).toBe('text/plain');
    expect(servedContentType('TEXT/JavaScript; charset=utf-8')).toBe(OPAQUE_CONTENT_TYPE);
  });

  it('never takes a type that only starts like an inert one', () => {
    expect(servedContentType('image/png+html')).toBe(OPAQUE_CONTENT_TYPE);
    expect(servedContentType('text/plain2')).toBe(OPAQUE_CONTENT_TYPE);
    expect(servedContentType('image/svg+xml; x=image/png')).toBe(OPAQUE_CONTENT_TYPE);
  });
});
