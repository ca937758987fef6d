// A module, so that this adds to Astro's types instead of replacing them.
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island once the page has painted (src/hydration/paint-directive.ts). */
    'client:paint'?: boolean;
    /** Hydrates the island when it comes into view (src/hydration/onscreen-directive.ts). */
    'client:onscreen'?: boolean;
  }
}
