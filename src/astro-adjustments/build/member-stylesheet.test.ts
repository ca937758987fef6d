import { describe, expect, it } from 'vitest';
import {
  manifestRoutesOf,
  mergedInOrder,
  routePatternOf,
  withMemberStylesheet,
} from './member-stylesheet.mjs';

type Style = { type: 'inline'; content: string } | { type: 'external'; src: string };

const route = (path: string, files: readonly string[]) => ({
  routeData: { route: path },
  styles: files.map((src): Style => ({ type: 'external', src })),
});

const css: Readonly<Record<string, string>> = {
  '_astro/Heading.a.css': '@layer base{h1{}}',
  '_astro/Layout.b.css': '@layer layout{.l{}}',
  '_astro/dashboard.c.css': '@layer components{.d{}}',
  '_astro/welcome.d.css': '@layer layout{.w{}}',
};
const cssOf = (src: string): string => css[src] ?? '';

describe('mergedInOrder', () => {
  it('keeps each item once, in the order the lists agree on', () => {
    expect(
      mergedInOrder([
        ['reset', 'layout', 'dashboard'],
        ['reset', 'tabs', 'layout', 'requests'],
        ['account', 'layout'],
      ]),
    ).toEqual(['account', 'reset', 'tabs', 'layout', 'requests', 'dashboard']);
  });

  it('answers nothing for no lists', () => {
    expect(mergedInOrder([])).toEqual([]);
  });
});

describe('routePatternOf', () => {
  it('writes an Astro route as the route table writes its pattern', () => {
    expect(routePatternOf('/requests/category/[categoryId]')).toBe(
      '/requests/category/:categoryId',
    );
    expect(routePatternOf('/dashboard')).toBe('/dashboard');
  });
});

describe('manifestRoutesOf', () => {
  it('finds the routes of the manifest in a server module, strings with brackets included', () => {
    const routes = [route('/a]{"', ['_astro/x.css'])];
    const code = `const manifest = {"base":"/","routes":${JSON.stringify(routes)},"site":"x"};`;
    const found = manifestRoutesOf(code);
    expect(found?.routes).toEqual(routes);
    expect(code.slice(found?.start, found?.end)).toBe(JSON.stringify(routes));
  });

  it('answers nothing for a module without a manifest', () => {
    expect(manifestRoutesOf('export const x = 1;')).toBeUndefined();
  });
});

describe('withMemberStylesheet', () => {
  const routes = [
    route('/sign-in', ['_astro/Heading.a.css', '_astro/welcome.d.css']),
    route('/dashboard', ['_astro/Heading.a.css', '_astro/Layout.b.css', '_astro/dashboard.c.css']),
    route('/requests/[requestId]', ['_astro/Layout.b.css', '_astro/Heading.a.css']),
    route('/healthz', []),
  ];
  const memberPages = new Set(['/dashboard', '/requests/:requestId']);

  it('has the signed-in pages link the member stylesheet, made of every file they use', () => {
    const { routes: rewritten, memberFiles } = withMemberStylesheet(
      routes,
      memberPages,
      cssOf,
      '_astro/member.x.css',
    );
    expect(memberFiles).toEqual([
      '_astro/Heading.a.css',
      '_astro/Layout.b.css',
      '_astro/dashboard.c.css',
    ]);
    expect(rewritten[1]?.styles).toEqual([{ type: 'external', src: '_astro/member.x.css' }]);
    expect(rewritten[2]?.styles).toEqual([{ type: 'external', src: '_astro/member.x.css' }]);
  });

  it('puts every other page’s styles inline, in its own order, and leaves pages without styles', () => {
    const { routes: rewritten } = withMemberStylesheet(routes, memberPages, cssOf, 'm.css');
    expect(rewritten[0]?.styles).toEqual([
      { type: 'inline', content: '@layer base{h1{}}@layer layout{.w{}}' },
    ]);
    expect(rewritten[3]?.styles).toEqual([]);
  });

  it('stops the build when a signed-in page of the route table is not in the manifest', () => {
    expect(() =>
      withMemberStylesheet(routes, new Set(['/dashboard', '/account']), cssOf, 'm.css'),
    ).toThrow(/no page in the manifest for \/account/);
  });

  it('stops the build when the styles are inline already', () => {
    const styles: Style[] = [{ type: 'inline', content: 'x' }];
    const inline = [{ routeData: { route: '/terms' }, styles }];
    expect(() => withMemberStylesheet(inline, new Set(), cssOf, 'm.css')).toThrow(
      /inlineStylesheets: 'never'/,
    );
  });
});
