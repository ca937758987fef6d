import { replayIntegration } from '@sentry/browser';

/**
 * Session replay, loaded after error reporting has started (./browser-monitoring.ts): it records
 * the page as it changes, kept for 1 session in 10 and for every session with an error. It masks
 * everything typed and the text of every input, textarea and select, and blocks nothing else.
 * Recordings are sent uncompressed, which needs no worker (the page's CSP allows none), and every
 * recorded event is scrubbed like the other reports.
 */
export function sessionReplay(scrub: <T>(value: T) => T) {
  return replayIntegration({
    maskAllInputs: true,
    maskAllText: false,
    mask: ['input', 'textarea', 'select'],
    unmask: [],
    block: [],
    blockAllMedia: false,
    useCompression: false,
    networkDetailAllowUrls: [],
    beforeAddRecordingEvent: (event) => scrub(event),
  });
}
