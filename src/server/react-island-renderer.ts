import react from '@astrojs/react/server.js';
import { listingModulesToPreload } from './listing-modules-to-preload';

/**
 * The islands' renderer (registered in astro.config.mjs): React's, which also writes on each
 * island the modules it needs (src/server/listing-modules-to-preload.ts).
 */
export default listingModulesToPreload(react);
