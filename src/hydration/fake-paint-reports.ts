import { vi } from 'vitest';

/**
 * Stands in for the browser's PerformanceObserver in tests: `report()` delivers paint entries to
 * every observer still watching, as the browser does once a frame has reached the screen. Only
 * tests import it.
 */
export function fakePaintReports() {
  const watching = new Set<FakeObserver>();
  const observed: PerformanceObserverInit[] = [];

  class FakeObserver {
    readonly callback: PerformanceObserverCallback;
    constructor(callback: PerformanceObserverCallback) {
      this.callback = callback;
    }
    observe(options: PerformanceObserverInit) {
      observed.push(options);
      watching.add(this);
    }
    disconnect() {
      watching.delete(this);
    }
    deliver(names: string[]) {
      const entries = names.map((name) => ({
        name,
        entryType: 'paint',
        startTime: 1,
        duration: 0,
      }));
      const list = {
        getEntries: () => entries,
        getEntriesByName: (name: string) => entries.filter((entry) => entry.name === name),
      } as unknown as PerformanceObserverEntryList;
      this.callback(list, this as unknown as PerformanceObserver);
    }
  }

  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    observed,
    report(...names: string[]) {
      for (const observer of [...watching]) observer.deliver(names);
    },
  };
}
