import type { NamedSSRLoadedRendererValue } from 'astro';
import { createElement, type FunctionComponent } from 'react';
import { renderToString } from 'react-dom/server';
import { RememberedRenders } from './remembered-renders';

/** What Astro gives a renderer as `this`: the page being rendered. */
interface RenderingPage {
  readonly result: object;
}

/**
 * A slot's HTML, as React's renderer for Astro passes it to a component rendered without
 * hydration: in an `astro-static-slot`, which Astro removes once the component is rendered.
 */
function StaticSlot({ value, name }: { value?: unknown; name?: string }) {
  // Astro's slots are HTML strings as String objects (its HTMLString), not primitive strings.
  const html = typeof value === 'string' || value instanceof String ? value.toString() : '';
  if (html.trim() === '') return null;
  return createElement('astro-static-slot', {
    name,
    suppressHydrationWarning: true,
    dangerouslySetInnerHTML: { __html: html },
  });
}

/** Resource hints React hoists into a root's output; Astro's React renderer drops them too. */
const hoistedLinks =
  /<link\s[^>]*rel="(?:preload|modulepreload|stylesheet|preconnect|dns-prefetch)"[^>]*>/g;

/** Each page's count of components rendered here, for ids (`useId`) unique in its HTML. */
const renderedOnPage = new WeakMap<object, number>();

/**
 * Renders already made, for the next page that shows the same component with the same props, slots
 * and place: a few hundred pages' worth of the kit's small pieces. Not under `astro dev`, where a
 * component changes with its file.
 */
const rememberedByDefault = import.meta.env.DEV
  ? undefined
  : new RememberedRenders({ maxEntries: 4000, maxKeyLength: 4096 });

/**
 * `renderer`, which renders a component that is not hydrated (the kit's headings, chips and icons a
 * page shows as they are) with React's `renderToString`, in one call; islands still go to
 * `renderer`. React's renderer for Astro streams every component into a reader of its own, which
 * cost a Dashboard about forty times the setup of a stream for a few bytes of HTML each. A
 * component rendered here never hydrates, so it needs neither the island's attributes nor a form's
 * state; its ids take the prefix `s` and a number of the page's own, apart from the islands' `r0`,
 * `r1`, …. Its HTML is remembered ({@link RememberedRenders}).
 */
export function renderingStaticComponentsWhole(
  renderer: NamedSSRLoadedRendererValue,
  remembered: RememberedRenders | undefined = rememberedByDefault,
): NamedSSRLoadedRendererValue {
  return {
    ...renderer,
    renderToStaticMarkup(this: RenderingPage, Component, props, slots, metadata) {
      if (metadata?.hydrate) {
        return renderer.renderToStaticMarkup.call(this, Component, props, slots, metadata);
      }
      const { default: children, ...named } = slots as Record<string, unknown>;
      // React's renderer for Astro drops `class` too: a React component takes `className`.
      const ownProps = { ...(props as Record<string, unknown>) };
      delete ownProps['class'];
      const elementProps: Record<string, unknown> = { ...ownProps };
      for (const [key, value] of Object.entries(named)) {
        // As React's renderer for Astro names them: `my-slot` and `my_slot` are `mySlot`.
        const name = key
          .trim()
          .replace(/[-_]([a-z])/g, (_match, letter: string) => letter.toUpperCase());
        elementProps[name] = createElement(StaticSlot, { value, name });
      }
      const content = children ?? ownProps['children'];
      if (content != null) elementProps['children'] = createElement(StaticSlot, { value: content });
      const page = this.result;
      const index = renderedOnPage.get(page) ?? 0;
      renderedOnPage.set(page, index + 1);
      const identifierPrefix = `s${index}`;
      const key = remembered?.key(Component as object, ownProps, slots, identifierPrefix);
      const known = key === undefined ? undefined : remembered?.get(key);
      if (known !== undefined) return Promise.resolve({ html: known });
      const html = renderToString(createElement(Component as FunctionComponent, elementProps), {
        identifierPrefix,
      }).replace(hoistedLinks, '');
      if (key !== undefined) remembered?.remember(key, html);
      return Promise.resolve({ html });
    },
  };
}
