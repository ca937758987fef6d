import * as Sentry from '@sentry/node';
import { useMonitoring } from '../../../platform/monitoring.ts';
import { onShutdown } from '../../../platform/shutdown.ts';
import { dataCollection, privacyScrubbers } from '../../lib/monitoring-privacy.ts';
import { redactPathTokens } from '../../lib/token-redaction.ts';
import type { MonitoringSettings } from '../config.ts';

const { scrubEvent, scrubValue } = privacyScrubbers(redactPathTokens);

/** How long a stopping server waits for the last reports to leave. */
const flushTimeoutMs = 2_000;

/**
 * Error reporting on the server (`@sentry/node`), started by scripts/start.mjs before anything else
 * when SENTRY_DSN is set. Every trace is kept (sample rate 1); request bodies are never read, and
 * every event and breadcrumb is scrubbed (src/lib/monitoring-privacy.ts) before it leaves. Errors
 * reach it through `monitoring` (platform/monitoring.ts).
 */
export function startServerMonitoring(settings: MonitoringSettings): void {
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    ...(settings.release === undefined ? {} : { release: settings.release }),
    tracesSampleRate: 1,
    dataCollection,
    // Two members meeting the same fault are two reports: no deduplication on a server.
    integrations: (defaults) => [
      ...defaults.filter(({ name }) => name !== 'Dedupe' && name !== 'Http'),
      Sentry.httpIntegration({ maxRequestBodySize: 'none' }),
    ],
    beforeSend: (event) => scrubEvent(event),
    // Traces leave as streamed spans, one at a time: each is scrubbed on its way out.
    beforeSendSpan: (span) => scrubValue(span),
    beforeBreadcrumb: (breadcrumb) => scrubValue(breadcrumb),
  });
  useMonitoring({
    reportError: (error) => {
      Sentry.captureException(error);
    },
    identify: (member) => {
      Sentry.setUser(member ? { id: member.id } : null);
      Sentry.setTag('internal', member ? String(member.internal) : undefined);
    },
  });
  onShutdown(async () => {
    await Sentry.close(flushTimeoutMs);
  });
}
