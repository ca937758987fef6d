/**
 * The error-reporting service, as the rest of the code sees it: report an error, say whose
 * request this is. The production entry point (scripts/start.mjs) plugs the real one in when
 * SENTRY_DSN is set (src/server/monitoring/server-monitoring.ts); otherwise both do nothing. It loads this
 * file as it is while the server build bundles its own copy, so the choice lives on the global
 * object.
 */

/** Who a request is for, as monitoring may know it: never an email or a name. */
export interface MonitoredMember {
  /** The member's `external_id`. */
  readonly id: string;
  /** A member of one of the internal companies (INTERNAL_COMPANY_NAMES). */
  readonly internal: boolean;
}

export interface Monitoring {
  /** Reports an error nobody handled, with what is known of the request it broke. */
  reportError(error: unknown): void;
  /** Ties the rest of this request to a member, or to nobody (after sign-out). */
  identify(member: MonitoredMember | undefined): void;
}

const nowhere: Monitoring = { reportError: () => undefined, identify: () => undefined };

const sharedByBothCopies = globalThis as unknown as Record<symbol, unknown>;
const monitoringKey = Symbol.for('member-portal.monitoring');

/** Sends reports to `service` from now on. */
export function useMonitoring(service: Monitoring): void {
  sharedByBothCopies[monitoringKey] = service;
}

function current(): Monitoring {
  return (sharedByBothCopies[monitoringKey] as Monitoring | undefined) ?? nowhere;
}

export const monitoring: Monitoring = {
  reportError: (error) => {
    current().reportError(error);
  },
  identify: (member) => {
    current().identify(member);
  },
};
