import type { AstroComponentMetadata, NamedSSRLoadedRendererValue } from 'astro';
import { createElement, Fragment, useId, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RememberedRenders } from './remembered-renders';
import { renderingStaticComponentsWhole } from './rendering-static-components-whole';

/** React's renderer, standing in: only islands reach it. */
const islandRenderer: NamedSSRLoadedRendererValue = {
  name: 'test',
  check: () => Promise.resolve(true),
  renderToStaticMarkup: vi.fn(() =>
    Promise.resolve({ html: '<div>island</div>', attrs: { prefix: 'r0' } }),
  ),
};
const renderer = renderingStaticComponentsWhole(islandRenderer);
const asShown = { astroStaticSlot: true } as unknown as AstroComponentMetadata;
const hydrated = { astroStaticSlot: true, hydrate: 'paint' } as unknown as AstroComponentMetadata;

function Card({
  title,
  iconStart,
  children,
}: {
  title: string;
  iconStart?: ReactNode;
  children?: ReactNode;
}) {
  return createElement('section', null, createElement('h2', null, iconStart, title), children);
}

function Labelled({ label }: { label: string }) {
  const id = useId();
  return createElement(
    Fragment,
    null,
    createElement('label', { htmlFor: id }, label),
    createElement('input', { id }),
  );
}

/** Astro's HTMLString: the HTML of a slot, a String object rather than a primitive string. */
class HtmlString extends String {}

const render = (
  page: object,
  component: unknown,
  props: Record<string, unknown>,
  slots: Record<string, string | HtmlString> = {},
  metadata = asShown,
) =>
  renderer.renderToStaticMarkup.call(
    { result: page },
    component,
    props,
    // Astro's type says strings; what it passes are its HTMLStrings.
    slots as Record<string, string>,
    metadata,
  );

describe('renderingStaticComponentsWhole', () => {
  it('renders a component shown as it is in one call, its slots where React’s renderer puts them', async () => {
    const { html } = await render(
      {},
      Card,
      { title: 'Travel', class: 'ignored' },
      { default: new HtmlString('<p>Flights &amp; hotels</p>'), 'icon-start': '<svg></svg>' },
    );
    expect(html).toBe(
      '<section><h2><astro-static-slot name="iconStart"><svg></svg></astro-static-slot>Travel</h2>' +
        '<astro-static-slot><p>Flights &amp; hotels</p></astro-static-slot></section>',
    );
    expect(islandRenderer.renderToStaticMarkup).not.toHaveBeenCalled();
  });

  it('leaves out an empty slot, as React’s renderer does', async () => {
    const { html } = await render({}, Card, { title: 'Travel' }, { default: new HtmlString('  ') });
    expect(html).toBe('<section><h2>Travel</h2></section>');
  });

  it('gives every component of a page ids of its own, apart from the islands’', async () => {
    const page = {};
    const first = (await render(page, Labelled, { label: 'One' })).html;
    const second = (await render(page, Labelled, { label: 'Two' })).html;
    const ids = [first, second].map((html) => /id="([^"]+)"/.exec(html)?.[1]);
    expect(ids[0]).toMatch(/^_s0/);
    expect(ids[1]).toMatch(/^_s1/);
    expect(new Set(ids).size).toBe(2);
    // Another page counts from the start.
    expect((await render({}, Labelled, { label: 'One' })).html).toBe(first);
  });

  it('drops the resource hints React hoists, as React’s renderer does', async () => {
    const WithFont = () =>
      createElement(
        Fragment,
        null,
        createElement('link', { rel: 'preload', href: '/font.woff2', as: 'font' }),
        createElement('p', null, 'Text'),
      );
    expect((await render({}, WithFont, {})).html).toBe('<p>Text</p>');
  });

  it('hands an island, which hydrates, to React’s renderer', async () => {
    const page = {};
    const rendered = await render(page, Card, { title: 'Island' }, {}, hydrated);
    expect(rendered).toEqual({ html: '<div>island</div>', attrs: { prefix: 'r0' } });
    expect(islandRenderer.renderToStaticMarkup).toHaveBeenCalledWith(
      Card,
      { title: 'Island' },
      {},
      hydrated,
    );
  });

  it('renders a component again with the same props, slots and place from what it remembers', async () => {
    const remembered = new RememberedRenders({ maxEntries: 10, maxKeyLength: 1000 });
    const remembering = renderingStaticComponentsWhole(islandRenderer, remembered);
    let renders = 0;
    const Counted = ({ label }: { label: string }) => {
      renders += 1;
      return createElement(Labelled, { label });
    };
    const show = (page: object, props: Record<string, unknown>) =>
      remembering.renderToStaticMarkup.call(
        { result: page },
        Counted,
        props,
        { default: new HtmlString('<b>x</b>') } as unknown as Record<string, string>,
        asShown,
      );
    const first = await show({}, { label: 'One' });
    expect(await show({}, { label: 'One' })).toEqual(first);
    expect(renders).toBe(1);
    // Other props, or another place on the page (its ids' prefix), are another render.
    const page = {};
    await show(page, { label: 'Two' });
    const secondOnPage = await show(page, { label: 'One' });
    expect(secondOnPage.html).toMatch(/id="_s1/);
    expect(renders).toBe(3);
    // Props that are not plain data are never remembered.
    await show({}, { label: 'One', onPick: () => undefined });
    await show({}, { label: 'One', onPick: () => undefined });
    expect(renders).toBe(5);
  });
});
