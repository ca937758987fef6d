/**
 * Addresses for views the server cannot answer from a kept copy of a member's page:
 * each call gives the address with a query of its own (`view=<n>`), which the pages ignore and
 * the kept copies' keys do not, so every view is rendered.
 */
export function unkeptViews(): (address: string) => string {
  let views = 0;
  return (address) => {
    views += 1;
    return `${address}${address.includes('?') ? '&' : '?'}view=${views}`;
  };
}
