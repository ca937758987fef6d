import type { ReactNode } from 'react';
import { requestStatusTabs } from '../../lib/request-status-tabs';
import { Tabs } from '../../ui/Tabs/Tabs';

interface RequestTabsProps {
  /** The value of the tab the address asked for (`Open`, `Closed`). */
  readonly selected: string;
  /**
   * The query of each tab's address, by tab value: the tab with the page its list shows (only
   * the addressed tab may be past its first page).
   */
  readonly searches: Readonly<Record<string, string>>;
  /** The open requests, rendered on the server (the page's `open` slot). */
  readonly open?: ReactNode;
  /** The closed requests, rendered on the server (the page's `closed` slot). */
  readonly closed?: ReactNode;
}

/**
 * The Requests page's Open and Closed tabs (the kit's Tabs: click, keys, swipe). The chosen tab
 * is written into the address in place, so a reload or a shared link opens the same tab and page.
 */
export default function RequestTabs({ selected, searches, open, closed }: RequestTabsProps) {
  const panels = { open, closed };
  const keepInAddress = (value: string) => {
    const search = searches[value];
    if (search === undefined) return;
    const url = new URL(window.location.href);
    url.search = search;
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
