import type { AstroComponentMetadata, NamedSSRLoadedRendererValue } from 'astro';
import { describe, expect, it, vi } from 'vitest';
import { listingModulesToPreload } from './listing-modules-to-preload';

const baseRenderer: NamedSSRLoadedRendererValue = {
  name: 'test',
  check: () => Promise.resolve(true),
  renderToStaticMarkup: () => Promise.resolve({ html: '<form></form>', attrs: { prefix: 'r0' } }),
};

const page = {
  result: {
    resolve: (specifier: string) =>
      Promise.resolve(
        specifier === '@astrojs/react/client.js'
          ? '/_astro/client.d.js'
          : '/_astro/SignInForm.a.js',
      ),
  },
};

const metadata = (hydrate?: 'paint') =>
  ({
    hydrate,
    componentUrl: '/src/islands/SignInForm/SignInForm.tsx',
    componentExport: { value: 'default' },
    displayName: 'SignInForm',
  }) as unknown as AstroComponentMetadata;

describe('listingModulesToPreload', () => {
  it('writes on a hydrated island the modules its component and renderer import', async () => {
    const preloadsFor = vi.fn(() => ['/_astro/form-kit.b.js', '/_astro/react.c.js']);
    const renderer = listingModulesToPreload(baseRenderer, preloadsFor);
    const rendered = await renderer.renderToStaticMarkup.call(
      page,
      () => null,
      {},
      {},
      metadata('paint'),
    );
    expect(preloadsFor).toHaveBeenCalledWith(['/_astro/SignInForm.a.js', '/_astro/client.d.js']);
    expect(rendered).toEqual({
      html: '<form></form>',
      attrs: { prefix: 'r0', 'data-preload': '/_astro/form-kit.b.js /_astro/react.c.js' },
    });
  });

  it('leaves a component that does not hydrate, or an island with nothing to list, as rendered', async () => {
    const renderer = listingModulesToPreload(baseRenderer, () => []);
    const listing = listingModulesToPreload(baseRenderer, () => ['/_astro/react.c.js']);
    const plain = { html: '<form></form>', attrs: { prefix: 'r0' } };
    expect(await listing.renderToStaticMarkup.call(page, () => null, {}, {}, metadata())).toEqual(
      plain,
    );
    expect(
      await renderer.renderToStaticMarkup.call(page, () => null, {}, {}, metadata('paint')),
    ).toEqual(plain);
  });
});
