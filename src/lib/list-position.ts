/**
 * Which page of a paged list (Requests' tabs, a category's requests) an address shows: a page
 * number (`?page=3`, as an address may be typed or kept), or the page right after or right before a
 * position the API named in a page's cursors (`?after=…`, `?before=…`), which is how the paging
 * links go: the API then reads that page from its index however far down the list it is.
 */
export type ListPosition =
  { readonly page: number } | { readonly after: string } | { readonly before: string };

export const firstPage: ListPosition = { page: 1 };

/** What could be a cursor of the API's: it is the API's to judge, this only keeps junk out. */
const plausibleCursor = /^[\w-]{1,200}$/;

/** A page number as an address gives it; anything else is the first page. */
export function pageNumberFrom(value: string | null | undefined): number {
  if (!value || !/^[1-9]\d{0,5}$/.test(value)) return 1;
  return Number(value);
}

/** The position an address asks for: a cursor first, else its page number. */
export function listPositionFrom(search: URLSearchParams): ListPosition {
  const after = search.get('after');
  if (after && plausibleCursor.test(after)) return { after };
  const before = search.get('before');
  if (before && plausibleCursor.test(before)) return { before };
  return { page: pageNumberFrom(search.get('page')) };
}

/** Writes `position` into `query`; the first page by number writes nothing. */
export function writeListPosition(query: URLSearchParams, position: ListPosition): void {
  if ('after' in position) query.set('after', position.after);
  else if ('before' in position) query.set('before', position.before);
  else if (position.page > 1) query.set('page', String(position.page));
}
