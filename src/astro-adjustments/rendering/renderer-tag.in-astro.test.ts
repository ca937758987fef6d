import { getContainerRenderer } from '@astrojs/react/container-renderer';
import type { SSRManifest } from 'astro';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { describe, expect, it, vi } from 'vitest';
import { reactIslandsRenderer } from '../build/react-islands.mjs';
import { islandRenderer } from './island-renderer-name';
import RendererTagPage from './RendererTagPage.astro';

// Typed for the linter, to which an `.astro` module has no type.
const page = RendererTagPage as AstroComponentFactory;

/**
 * Astro asks each renderer's `check` whether a component is its own unless the component names
 * its renderer (`Symbol.for('astro:renderer')`), and React's `check` answers by rendering the
 * component: a page would render every component twice, and only the bench would notice.
 */
describe('a page Astro renders', () => {
  it('renders each component once, by the islands’ renderer, asking no renderer to check', async () => {
    // Astro's renderers in the order astro.config.mjs registers them: React's, then the islands'.
    const renderers = await loadRenderers([getContainerRenderer(), reactIslandsRenderer]);
    const checks = renderers.map(({ name, ssr }) => ({ name, check: vi.spyOn(ssr, 'check') }));
    const islands = renderers.find(({ name }) => name === islandRenderer);
    if (!islands) throw new Error(`no renderer named ${islandRenderer}`);
    const rendersByIslandsRenderer = vi.spyOn(islands.ssr, 'renderToStaticMarkup');
    // The container knows only Astro's own directives; the script of ours is not what is tested.
    const manifest = { clientDirectives: new Map([['paint', '/* client:paint */']]) };
    const container = await AstroContainer.create({
      renderers,
      manifest: manifest as unknown as SSRManifest,
    });

    const html = await container.renderToString(page);

    expect(html).toContain('Rendered once</h2>');
    expect(html).toMatch(/<astro-island[^>]*>.*Pressed once.*<\/astro-island>/s);
    expect(checks.map(({ name, check }) => [name, check.mock.calls.length])).toEqual([
      ['@astrojs/react', 0],
      [islandRenderer, 0],
    ]);
    expect(rendersByIslandsRenderer).toHaveBeenCalledTimes(2);
  });
});
