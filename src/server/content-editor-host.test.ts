import { describe, expect, it } from 'vitest';
import { matchRoute } from '../route-matching';
import { editorOnlyHost, isServedOnHost } from './content-editor-host';

const editorHost = 'editor.portal.example.com';

/** Whether `path` is answered on `host`, as Astro routes it (its own 404 page for the unknown). */
const servedAt = (host: string, path: string, routePattern = path) =>
  isServedOnHost({ route: matchRoute(path), routePattern, host, editorHost });

describe('the GitHub-mode content editor on its own host', () => {
  it('is served on its host, its page and its API', () => {
    expect(servedAt(editorHost, '/keystatic')).toBe(true);
    expect(servedAt(editorHost, '/keystatic/singleton/terms')).toBe(true);
    expect(servedAt(editorHost, '/api/keystatic/github/login')).toBe(true);
    expect(servedAt('Editor.Portal.Example.COM', '/keystatic')).toBe(true);
  });

  it('is not found on the portal’s host', () => {
    expect(servedAt('portal.example.com', '/keystatic')).toBe(false);
    expect(servedAt('portal.example.com', '/api/keystatic/github/oauth/callback')).toBe(false);
    expect(servedAt('127.0.0.1:4321', '/keystatic')).toBe(false);
  });

  it('has no member page, form, action or file served beside it', () => {
    for (const path of ['/sign-in', '/dashboard', '/requests/1', '/', '/welcome/about-us']) {
      expect(servedAt(editorHost, path), path).toBe(false);
      expect(servedAt('portal.example.com', path), path).toBe(true);
    }
    expect(servedAt(editorHost, '/_actions/auth.signIn', '/_actions/[...path]')).toBe(false);
    // Astro has no file for the root, which it answers with its 404 page; the table redirects it.
    expect(servedAt(editorHost, '/', '/404')).toBe(false);
  });

  it('shares with the portal only the probes, the policy’s reports and the error pages', () => {
    for (const path of ['/healthz', '/readyz', '/csp-reports']) {
      expect(servedAt(editorHost, path), path).toBe(true);
    }
    expect(servedAt(editorHost, '/no-such-page', '/404')).toBe(true);
  });
});

describe('the host the editor alone is served on', () => {
  it('is the host of CONTENT_EDITOR_ORIGIN in GitHub mode', () => {
    expect(
      editorOnlyHost({
        storage: 'github',
        editorOrigin: 'http://localhost:4421',
        development: false,
      }),
    ).toBe('localhost:4421');
  });

  it('is none without GitHub mode, or under the development server without an address', () => {
    expect(editorOnlyHost({ storage: 'local', editorOrigin: undefined, development: true })).toBe(
      undefined,
    );
    expect(editorOnlyHost({ storage: '', editorOrigin: undefined, development: false })).toBe(
      undefined,
    );
    expect(
      editorOnlyHost({ storage: 'github', editorOrigin: undefined, development: true }),
    ).toBeUndefined();
  });

  it('leaves the editor on no host when a GitHub-mode server has no address for it', () => {
    const nowhere = editorOnlyHost({
      storage: 'github',
      editorOrigin: undefined,
      development: false,
    });
    expect(nowhere).toBeNull();
    for (const host of ['portal.example.com', 'localhost:4321']) {
      expect(
        isServedOnHost({
          route: matchRoute('/keystatic'),
          routePattern: '/keystatic',
          host,
          editorHost: nowhere,
        }),
      ).toBe(false);
    }
  });
});
