import react from '@astrojs/react/server.js';
import { listingModulesToPreload } from './listing-modules-to-preload';
import { renderingStaticComponentsWhole } from './rendering-static-components-whole';
import { writingActionResultsWhole } from './writing-action-results-whole';

/**
 * The islands' renderer (registered by src/astro-adjustments/build/react-islands.mjs): React's,
 * which also writes on each island the modules it needs (`listing-modules-to-preload.ts`) and the
 * result of a form post with its message (`writing-action-results-whole.ts`), and renders the
 * components that do not hydrate in one call each (`rendering-static-components-whole.ts`).
 */
export default listingModulesToPreload(
  writingActionResultsWhole(renderingStaticComponentsWhole(react)),
);
