import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type TouchEvent,
} from 'react';
import { Icon } from '../Icon/Icon';
import styles from './Tabs.module.css';
import {
  INDICATOR_DELAY_MS,
  tabAfterKey,
  tabAfterSwipe,
  tabScrollStep,
  tabValue,
} from './tab-rules';

/** The scroll buttons' arrows (only the tabs draw them, so they live here). */
const CHEVRON_LEFT = 'M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12l4.6-4.6Z';
const CHEVRON_RIGHT = 'M10 6 8.6 7.4 13.2 12l-4.6 4.6L10 18l6-6-6-6Z';

/** One tab and its panel. */
export interface TabItem {
  label: string;
  content: ReactNode;
}

/** Props of {@link Tabs}. */
interface TabsProps {
  tabs: readonly TabItem[];
  /** Accessible name of the tab list. */
  label: string;
  /** Controlled active tab, by value (see `tabValue`). */
  value?: string | undefined;
  /** Initially active tab of an uncontrolled set; the first tab by default. */
  defaultValue?: string | undefined;
  onValueChange?: ((value: string) => void) | undefined;
  /**
   * `automatic` (default): arrows, Home and End move focus and activate at once, which suits
   * panels that are already rendered. `manual`: they only move focus; Enter or Space activates.
   */
  activation?: 'automatic' | 'manual' | undefined;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * WAI-ARIA tabs with a sliding indicator, a scrollable tab list with scroll buttons when it
 * overflows, and swipe between panels on touch screens. State is exposed as `data-state`
 * ("active" | "inactive") on tabs and panels.
 */
export function Tabs({
  tabs,
  label,
  value,
  defaultValue,
  onValueChange,
  activation = 'automatic',
}: TabsProps) {
  const idBase = useId();
  const values = tabs.map((tab) => tabValue(tab.label));
  const [ownValue, setOwnValue] = useState(defaultValue ?? values[0] ?? '');
  const activeValue = value ?? ownValue;
  const activeIndex = Math.max(0, values.indexOf(activeValue));
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const indicatorRef = useRef<HTMLSpanElement>(null);
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  const [indicatorReady, setIndicatorReady] = useState(false);
  const [overflow, setOverflow] = useState({ start: false, end: false });

  const activate = (index: number) => {
    const next = values[index];
    if (next === undefined || next === values[activeIndex]) return;
    if (value === undefined) setOwnValue(next);
    onValueChange?.(next);
  };

  const placeIndicator = useCallback(() => {
    const indicator = indicatorRef.current;
    const tab = tabRefs.current[activeIndex];
    if (!indicator || !tab) return;
    // CSSOM, not a style attribute: the page's CSP forbids inline style attributes.
    indicator.style.setProperty('--indicator-start', `${tab.offsetLeft}px`);
    indicator.style.setProperty('--indicator-size', `${tab.offsetWidth}px`);
  }, [activeIndex]);

  useEffect(() => {
    // The indicator starts once layout (and web fonts) have settled, 150 ms after first render.
    const timer = setTimeout(() => {
      setIndicatorReady(true);
    }, INDICATOR_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, []);

  useLayoutEffect(() => {
    if (indicatorReady) placeIndicator();
  }, [indicatorReady, placeIndicator]);

  const measureOverflow = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const start = scroller.scrollLeft > 1;
    const end = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
    setOverflow((current) =>
      current.start === start && current.end === end ? current : { start, end },
    );
  }, []);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return undefined;
    measureOverflow();
    scroller.addEventListener('scroll', measureOverflow, { passive: true });
    const resizeObserver =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            measureOverflow();
            placeIndicator();
          })
        : undefined;
    resizeObserver?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measureOverflow);
      resizeObserver?.disconnect();
    };
  }, [measureOverflow, placeIndicator]);

  const scrollBy = (direction: 1 | -1) => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const smooth = !window.matchMedia(REDUCED_MOTION).matches;
    scroller.scrollBy({
      left: direction * tabScrollStep(scroller.clientWidth),
      behavior: smooth ? 'smooth' : 'instant',
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, focusedIndex: number) => {
    const next = tabAfterKey(event.key, focusedIndex, tabs.length);
    if (next === null) return;
    event.preventDefault();
    tabRefs.current[next]?.focus();
    if (activation === 'automatic') activate(next);
  };

  const onTouchStart = (event: TouchEvent<HTMLDivElement>) => {
    const touch = event.touches[0];
    swipeStart.current =
      touch && event.touches.length === 1 ? { x: touch.clientX, y: touch.clientY } : null;
  };

  const onTouchEnd = (event: TouchEvent<HTMLDivElement>) => {
    const start = swipeStart.current;
    const touch = event.changedTouches[0];
    swipeStart.current = null;
    if (!start || !touch) return;
    activate(
      tabAfterSwipe(activeIndex, tabs.length, touch.clientX - start.x, touch.clientY - start.y),
    );
  };

  return (
    <div className={styles.tabs}>
      <div className={styles.bar}>
        <button
          type="button"
          className={styles.scrollButton}
          aria-label="Scroll tabs left"
          tabIndex={-1}
          hidden={!overflow.start}
          onClick={() => {
            scrollBy(-1);
          }}
        >
          <Icon path={CHEVRON_LEFT} />
        </button>
        <div ref={scrollerRef} className={styles.scroller}>
          <div role="tablist" aria-label={label} className={styles.list}>
            {tabs.map((tab, index) => {
              const active = index === activeIndex;
              const tabKey = values[index] ?? String(index);
              return (
                <button
                  key={tabKey}
                  ref={(element) => {
                    tabRefs.current[index] = element;
                  }}
                  type="button"
                  role="tab"
                  id={`${idBase}-tab-${tabKey}`}
                  aria-selected={active}
                  aria-controls={`${idBase}-panel-${tabKey}`}
                  tabIndex={active ? 0 : -1}
                  className={styles.tab}
                  data-state={active ? 'active' : 'inactive'}
                  data-value={tabKey}
                  onClick={() => {
                    activate(index);
                  }}
                  onKeyDown={(event) => {
                    onKeyDown(event, index);
                  }}
                >
                  {tab.label}
                </button>
              );
            })}
          </div>
          <span
            ref={indicatorRef}
            className={styles.indicator}
            data-ready={indicatorReady ? '' : undefined}
            aria-hidden="true"
          />
        </div>
        <button
          type="button"
          className={styles.scrollButton}
          aria-label="Scroll tabs right"
          tabIndex={-1}
          hidden={!overflow.end}
          onClick={() => {
            scrollBy(1);
          }}
        >
          <Icon path={CHEVRON_RIGHT} />
        </button>
      </div>
      <div
        className={styles.panels}
        data-indicator={indicatorReady ? 'ready' : undefined}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        onTouchCancel={() => {
          swipeStart.current = null;
        }}
      >
        {tabs.map((tab, index) => {
          const active = index === activeIndex;
          const tabKey = values[index] ?? String(index);
          return (
            <div
              key={tabKey}
              role="tabpanel"
              id={`${idBase}-panel-${tabKey}`}
              aria-labelledby={`${idBase}-tab-${tabKey}`}
              // The WAI-ARIA tabs pattern: focusable, so keyboard users reach (and scroll) a panel
              // that has no controls of its own.
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
              tabIndex={0}
              hidden={!active}
              className={styles.panel}
              data-state={active ? 'active' : 'inactive'}
            >
              {tab.content}
            </div>
          );
        })}
      </div>
    </div>
  );
}
