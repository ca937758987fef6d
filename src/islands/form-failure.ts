import { isInputError, type SafeResult } from 'astro:actions';

/** What `useActionState` holds for an Astro Action: nothing yet, or its last result. */
export type ActionState<T> = SafeResult<unknown, T> | null;

/**
 * The form-level message for a failed action (field errors are shown by their
 * fields). A server fault shows only the fallback: its text may hold internals.
 */
export function formFailure(state: ActionState<unknown>, fallbackMessage: string): string | undefined {
  const error = state?.error;
  if (!error || isInputError(error)) return undefined;
  if (error.status >= 500) return fallbackMessage;
  return error.message || fallbackMessage;
}
