/**
 * The request header in which the server's entry point (scripts/start.mjs) hands the visitor's
 * address to the pages. It overwrites whatever a client sent under this name, so the pages can
 * believe it.
 */
export const clientAddressHeader = 'x-portal-client-address';
