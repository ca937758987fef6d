import type { SafeResult } from 'astro:actions';

/** An action failure as islands and pages read it (the shape of Astro's ActionError and input error). */
export interface ActionFailure {
  readonly type: 'AstroActionError' | 'AstroActionInputError';
  readonly code: string;
  readonly status: number;
  readonly message: string;
  /** Input errors only: the messages for each field, by the field's name. */
  readonly fields?: Readonly<Record<string, string[]>>;
}

/** Whether a failure is about the input, with a message per field. */
export function isInputError(error: unknown): error is ActionFailure & {
  readonly type: 'AstroActionInputError';
  readonly fields: Readonly<Record<string, string[]>>;
} {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { type?: unknown }).type === 'AstroActionInputError'
  );
}

/** What `useActionState` holds for an Astro Action: nothing yet, or its last result. */
type ActionState<T> = SafeResult<Record<string, unknown>, T> | null;

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
