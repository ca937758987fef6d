import type { AstroComponentMetadata, NamedSSRLoadedRendererValue } from 'astro';

/** What a renderer returns for one component: its HTML and the attributes of its island. */
export type RenderedIsland = Awaited<
  ReturnType<NamedSSRLoadedRendererValue['renderToStaticMarkup']>
>;

/** What Astro gives a renderer as `this`: the page being rendered, as far as the islands read it. */
interface RenderingPage {
  readonly result: {
    resolve(specifier: string): Promise<string>;
    /** The result of the form post the page answers, if it answers one. */
    readonly actionResult?: unknown;
  };
}

/**
 * `renderer`, whose every rendered component passes through `adjust` with the page being
 * rendered (Astro's `this` for a renderer) and the component's metadata. The one way the
 * islands' renderer (src/astro-adjustments/rendering/react-island-renderer.ts) adds to React's.
 */
export function adjustingRenderedIslands(
  renderer: NamedSSRLoadedRendererValue,
  adjust: (
    rendered: RenderedIsland,
    page: RenderingPage,
    metadata: AstroComponentMetadata | undefined,
  ) => RenderedIsland | Promise<RenderedIsland>,
): NamedSSRLoadedRendererValue {
  return {
    ...renderer,
    async renderToStaticMarkup(this: RenderingPage, Component, props, slots, metadata) {
      const rendered = await renderer.renderToStaticMarkup.call(
        this,
        Component,
        props,
        slots,
        metadata,
      );
      return adjust(rendered, this, metadata);
    },
  };
}
