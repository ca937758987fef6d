import type { ReactNode } from 'react';
import {
  requestStatusTabFrom,
  requestStatusTabSearch,
  requestStatusTabs,
} from '../../lib/request-status-tabs';
import { Tabs } from '../../ui/Tabs/Tabs';

export interface RequestTabsProps {
  /** The value of the tab the address asked for (`Open`, `Closed`). */
  readonly selected: string;
  /** The page of the list each tab shows, by tab value: only the addressed tab may be past 1. */
  readonly pages: Readonly<Record<string, number>>;
  /** The open requests, rendered on the server (the page's `open` slot). */
  readonly open?: ReactNode;
  /** The closed requests, rendered on the server (the page's `closed` slot). */
  readonly closed?: ReactNode;
}

/**
 * The Requests page's Open and Closed tabs (the kit's Tabs: click, keys, swipe). The chosen tab
 * is written into the address in place, so a reload or a shared link opens the same tab and page.
 */
export default function RequestTabs({ selected, pages, open, closed }: RequestTabsProps) {
  const panels = { open, closed };
  const keepInAddress = (value: string) => {
    const url = new URL(window.location.href);
    url.search = requestStatusTabSearch(requestStatusTabFrom(value), pages[value] ?? 1);
    window.history.replaceState(window.history.state, '', url);
  };
  return (
    <Tabs
      label="Requests by status"
      defaultValue={selected}
      onValueChange={keepInAddress}
      tabs={requestStatusTabs.map((tab) => ({
        label: tab.label,
        content: panels[tab.filter],
      }))}
    />
  );
}
