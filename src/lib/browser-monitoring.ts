import {
  addIntegration,
  breadcrumbsIntegration,
  browserApiErrorsIntegration,
  BrowserClient,
  dedupeIntegration,
  defaultStackParser,
  getCurrentScope,
  globalHandlersIntegration,
  httpContextIntegration,
  linkedErrorsIntegration,
  makeFetchTransport,
} from '@sentry/browser';
import { dataCollection, privacyScrubbers } from './monitoring-privacy';
import { redactorFromRules, type PathTokenRules } from './path-token-redaction';

/** What the server tells the page (src/components/MonitoringScript.astro). */
export interface BrowserMonitoringSettings {
  readonly dsn: string;
  readonly environment: string;
  readonly release?: string | undefined;
  /** The member the page was rendered for: `external_id` and the internal flag only. */
  readonly member?: { readonly id: string; readonly internal: boolean } | undefined;
}

/**
 * What the page is given: the settings, and the rules that find tokens in the route table's
 * addresses, as data rather than the table's code.
 */
export interface BrowserMonitoringPageSettings extends BrowserMonitoringSettings {
  readonly pathTokens: PathTokenRules;
}

/** The `<meta>` element the settings travel in. */
export const settingsMetaName = 'portal-monitoring';

function readSettings(): BrowserMonitoringPageSettings | undefined {
  const content = document
    .querySelector(`meta[name="${settingsMetaName}"]`)
    ?.getAttribute('content');
  if (!content) return undefined;
  try {
    return JSON.parse(content) as BrowserMonitoringPageSettings;
  } catch {
    return undefined;
  }
}

/**
 * Error reporting in the browser, loaded only when the server has a DSN and only once the page is
 * interactive. It starts with error reporting alone (the smallest client, the integrations
 * listed here); session replay follows later, in a chunk of its own (./session-replay.ts).
 * Every event and breadcrumb is scrubbed before it leaves (./monitoring-privacy.ts).
 */
export function startBrowserMonitoring(): void {
  const settings = readSettings();
  if (!settings) return;
  const { scrubEvent, scrubValue } = privacyScrubbers(redactorFromRules(settings.pathTokens));
  const client = new BrowserClient({
    dsn: settings.dsn,
    environment: settings.environment,
    ...(settings.release === undefined ? {} : { release: settings.release }),
    transport: makeFetchTransport,
    stackParser: defaultStackParser,
    integrations: [
      globalHandlersIntegration(),
      browserApiErrorsIntegration(),
      linkedErrorsIntegration(),
      dedupeIntegration(),
      httpContextIntegration(),
      breadcrumbsIntegration(),
    ],
    // The sample rates of docs/PRODUCT.md §9.
    tracesSampleRate: 1,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    dataCollection,
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubValue(breadcrumb),
  });
  const scope = getCurrentScope();
  scope.setClient(client);
  client.init();
  // A page without a member (signed out, or before sign-in) reports nobody.
  scope.setUser(settings.member ? { id: settings.member.id } : null);
  scope.setTag('internal', settings.member ? String(settings.member.internal) : undefined);

  whenIdle(() => {
    void import('./session-replay').then(({ sessionReplay }) => {
      addIntegration(sessionReplay(scrubValue));
    });
  });
}

/** Runs `work` when the browser has a moment, or soon. */
function whenIdle(work: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(work, { timeout: 3_000 });
  else setTimeout(work, 1);
}
