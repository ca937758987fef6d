import { safeReturnPath } from '../session/return-to';

/** Actions that move the visitor on return `{ redirectTo }`; islands and native forms both follow it. */
export interface Navigation {
  readonly redirectTo: string;
}

/** The same-site path an action result asks to go to, if any. */
export function redirectTarget(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('redirectTo' in data)) return undefined;
  return typeof data.redirectTo === 'string' ? safeReturnPath(data.redirectTo) : undefined;
}
