import { tabValue } from '../ui/Tabs/tab-rules';

/** The tabs of the Requests page, each listing the requests of one filter (docs/PRODUCT.md §7.2.1). */
export const requestStatusTabs = [
  { label: 'Open', filter: 'open' },
  { label: 'Closed', filter: 'closed' },
] as const;

export type RequestStatusTab = (typeof requestStatusTabs)[number];

/** The query parameters that keep the chosen tab, and the page within it, in the address. */
export const tabParameter = 'tab';
export const pageParameter = 'page';

/**
 * The tab an address asks for, by its tab value (docs/PRODUCT.md §4: the label with non-word
 * characters replaced by underscores); the first tab for anything else.
 */
export function requestStatusTabFrom(value: string | null | undefined): RequestStatusTab {
  return requestStatusTabs.find((tab) => tabValue(tab.label) === value) ?? requestStatusTabs[0];
}

/**
 * The query of the address that shows `tab` at `page`: the tab always, the page only past the
 * first, e.g. `?tab=Closed&page=2`.
 */
export function requestStatusTabSearch(tab: RequestStatusTab, page = 1): string {
  const query = new URLSearchParams({ [tabParameter]: tabValue(tab.label) });
  if (page > 1) query.set(pageParameter, String(page));
  return `?${query.toString()}`;
}
