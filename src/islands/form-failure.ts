import type { SafeResult } from 'astro:actions';
import { isInputError } from './island-actions';

/** What `useActionState` holds for an Astro Action: nothing yet, or its last result. */
export type ActionState<T> = SafeResult<Record<string, unknown>, T> | null;

/**
 * `withState(action)` typed for an initial state of `null` (nothing submitted
 * yet). The same function object is returned: React needs its form metadata
 * to render the native `<form action>` for the server.
 */
export function startingEmpty<T>(
  action: (state: T, formData: FormData) => Promise<T>,
): (state: T | null, formData: FormData) => Promise<T> {
  // withState only serialises the previous state; it never reads into it.
  return action as (state: T | null, formData: FormData) => Promise<T>;
}

/**
 * The form-level message for a failed action (field errors are shown by their
 * fields). A server fault shows only the fallback: its text may hold internals.
 */
export function formFailure(
  state: ActionState<unknown>,
  fallbackMessage: string,
): string | undefined {
  const error = state?.error;
  if (!error || isInputError(error)) return undefined;
  if (error.status >= 500) return fallbackMessage;
  return error.message || fallbackMessage;
}
