import { rateLimitKey, UNKNOWN_CLIENT_ADDRESS } from '../../../platform/client-address.ts';
import { logger } from '../../../platform/logger.ts';
import { MINUTE } from '../../../platform/clock.ts';

/** What a {@link ClientWindowLimit} says of one more post from a client. */
type LimitVerdict =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly retryAfterSeconds: number;
      /** Over the client's own limit, or a new client while every place is taken. */
      readonly reason: 'over its limit' | 'no room';
      /**
       * The first refusal for this reason: of this client in its window, or of any newcomer since
       * the last one was let in.
       */
      readonly firstRefusal: boolean;
    };

interface ClientWindow {
  readonly startedAt: number;
  count: number;
  refused: boolean;
}

/**
 * A fixed-window count per client address (IPv6 by /64, as the API's limits count), kept in this
 * process's memory: for posts that are only log lines, which no other server needs to know of.
 *
 * A client's window starts with its first post, so the map holds windows oldest first, and the
 * ended ones are dropped from its front as time passes. It never tracks more than `maxClients`:
 * when every place holds a live window, a new client is refused until the oldest window ends,
 * rather than someone's count forgotten, so rotating addresses buys no more posts than
 * `maxClients × limit` a window.
 */
export class ClientWindowLimit {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxClients: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, ClientWindow>();
  #newcomersRefused = false;

  constructor(options: {
    limit: number;
    windowMs: number;
    maxClients: number;
    now?: () => number;
  }) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#maxClients = options.maxClients;
    this.#now = options.now ?? Date.now;
  }

  /** Counts one post from `address` (undefined: unknown), and says whether it may go on. */
  take(address: string | undefined): LimitVerdict {
    const now = this.#now();
    this.#forgetEndedWindows(now);
    const key = address ? rateLimitKey(address) : UNKNOWN_CLIENT_ADDRESS;
    let window = this.#windows.get(key);
    if (window === undefined) {
      const oldest = this.#windows.values().next().value;
      if (oldest !== undefined && this.#windows.size >= this.#maxClients) {
        const firstRefusal = !this.#newcomersRefused;
        this.#newcomersRefused = true;
        const retryAfterSeconds = this.#secondsLeft(oldest, now);
        return { allowed: false, retryAfterSeconds, reason: 'no room', firstRefusal };
      }
      this.#newcomersRefused = false;
      window = { startedAt: now, count: 0, refused: false };
      this.#windows.set(key, window);
    }
    if (window.count < this.#limit) {
      window.count += 1;
      return { allowed: true };
    }
    const firstRefusal = !window.refused;
    window.refused = true;
    const retryAfterSeconds = this.#secondsLeft(window, now);
    return { allowed: false, retryAfterSeconds, reason: 'over its limit', firstRefusal };
  }

  /** How many clients it holds a window for. */
  get trackedClients(): number {
    return this.#windows.size;
  }

  #forgetEndedWindows(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now < window.startedAt + this.#windowMs) return;
      this.#windows.delete(key);
    }
  }

  #secondsLeft(window: ClientWindow, now: number): number {
    return Math.max(1, Math.ceil((window.startedAt + this.#windowMs - now) / 1000));
  }
}

/**
 * Report batches one client may post to `/csp-reports`: far more than a browser sends for pages
 * that break their policy, few enough that nobody fills the logs.
 */
export const CSP_REPORTS_PER_CLIENT = { limit: 60, windowMs: 10 * MINUTE } as const;

/** Clients tracked at once: about a megabyte at most. */
const CSP_REPORT_CLIENTS_TRACKED = 10_000;

const cspReportLimit = new ClientWindowLimit({
  ...CSP_REPORTS_PER_CLIENT,
  maxClients: CSP_REPORT_CLIENTS_TRACKED,
});

/**
 * The answer to a report post from `address` beyond its limit: 429 with `Retry-After`, and one
 * log line when its reports start being dropped, none for the rest of its window (nor for other
 * newcomers while there is no room). Undefined: the post may be read and logged.
 */
export function refuseCspReportsOverLimit(
  address: string | undefined,
  limit: ClientWindowLimit = cspReportLimit,
): Response | undefined {
  const verdict = limit.take(address);
  if (verdict.allowed) return undefined;
  if (verdict.firstRefusal) {
    logger.warn(
      { retryAfterSeconds: verdict.retryAfterSeconds },
      verdict.reason === 'over its limit'
        ? 'content security policy reports: too many from one client; its reports are dropped until its window ends'
        : 'content security policy reports: too many clients at once; reports from new ones are dropped until a window ends',
    );
  }
  return new Response(null, {
    status: 429,
    headers: { 'retry-after': String(verdict.retryAfterSeconds) },
  });
}
