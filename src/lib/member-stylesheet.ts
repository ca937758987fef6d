/**
 * What the server's code names until the build knows the address of the stylesheet signed-in pages
 * link: the build writes the real one in its place
 * (src/astro-adjustments/build/member-stylesheet.mjs).
 */
export const memberStylesheetMarker = '/_astro/member-stylesheet-address-set-by-the-build.css';

/**
 * The stylesheet every signed-in page links, for the pages before sign-in to fetch ahead;
 * `undefined` under `astro dev`, where every page carries its styles.
 */
export const memberStylesheetAddress: string | undefined = import.meta.env.PROD
  ? memberStylesheetMarker
  : undefined;
