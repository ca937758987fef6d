/**
 * Islands render with React's renderer, which also lists on each island the modules it needs, and
 * hydrate by the product's own directives, which fetch those at once: `client:paint` once the page
 * has painted, `client:onscreen` when the island comes into view.
 */
import { fileURLToPath } from 'node:url';
import { islandRenderer, reactClientEntrypoint } from '../rendering/island-renderer-name.ts';

/** The islands' renderer, as Astro registers it and as a container in a test loads it. */
export const reactIslandsRenderer = {
  name: islandRenderer,
  clientEntrypoint: reactClientEntrypoint,
  serverEntrypoint: fileURLToPath(
    new URL('../rendering/react-island-renderer.ts', import.meta.url),
  ),
};

/** @returns {import('astro').AstroIntegration} */
export function reactIslands() {
  return {
    name: 'react-islands',
    hooks: {
      'astro:config:setup': ({ addRenderer, addClientDirective }) => {
        addRenderer(reactIslandsRenderer);
        for (const name of ['paint', 'onscreen']) {
          addClientDirective({
            name,
            entrypoint: fileURLToPath(
              new URL(`../../hydration/${name}-directive.ts`, import.meta.url),
            ),
          });
        }
      },
    },
  };
}
