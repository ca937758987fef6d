/**
 * The cascade order of the whole app: later layers win, whatever the selector
 * weight. It is the first style of every page (the first mention of a layer
 * fixes its rank), and astro.config.mjs allows exactly this text in the CSP.
 */
export const layerOrder = '@layer reset, tokens, base, layout, components, utilities;';
