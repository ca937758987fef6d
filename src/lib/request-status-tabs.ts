import { tabValue } from '../ui/Tabs/tab-rules';
import { firstPage, writeListPosition, type ListPosition } from './list-position';

/** The tabs of the Requests page, each listing the requests of one filter. */
export const requestStatusTabs = [
  { label: 'Open', filter: 'open' },
  { label: 'Closed', filter: 'closed' },
] as const;

export type RequestStatusTab = (typeof requestStatusTabs)[number];

/** The query parameter that keeps the chosen tab in the address (its page: list-position.ts). */
export const tabParameter = 'tab';

/**
 * The tab an address asks for, by its tab value (the label with non-word characters replaced by
 * underscores); the first tab for anything else.
 */
export function requestStatusTabFrom(value: string | null | undefined): RequestStatusTab {
  return requestStatusTabs.find((tab) => tabValue(tab.label) === value) ?? requestStatusTabs[0];
}

/**
 * The query of the address that shows `tab` at `position`: the tab always, the position unless
 * it is the first page, e.g. `?tab=Closed&after=…`.
 */
export function requestStatusTabSearch(
  tab: RequestStatusTab,
  position: ListPosition = firstPage,
): string {
  const query = new URLSearchParams({ [tabParameter]: tabValue(tab.label) });
  writeListPosition(query, position);
  return `?${query.toString()}`;
}
