/**
 * The renderer every island is rendered with (`react-island-renderer.ts`): React's, which also
 * lists the modules each island needs. Registered by src/astro-adjustments/build/react-islands.mjs.
 */
export const islandRenderer = 'react-islands';

/** The module React islands hydrate with, as `@astrojs/react` names it. */
export const reactClientEntrypoint = '@astrojs/react/client.js';
