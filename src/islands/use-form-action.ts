import { withState } from '@astrojs/react/actions';
import type { SafeResult } from 'astro:actions';
import { startTransition, useActionState, useEffect, type SubmitEvent } from 'react';
import type { ErrorSummaryItem } from '../ui/ErrorSummary/ErrorSummary';
import { formFailure, isInputError } from '../lib/action-failure';

/** A form field as the error summary links to it: its `name` in the form and its element id. */
interface FormField {
  readonly name: string;
  readonly id: string;
}

/**
 * The one way an island runs an Astro Action from a form: the server renders a real
 * `<form method="POST">` that works without JavaScript; once hydrated, submitting stays on the
 * page, shows the errors (a summary at the top, each message under its field), and follows a
 * `redirectTo` the action answers with.
 */
export function useFormAction<Output>(
  action: (formData: FormData) => Promise<SafeResult<Record<string, unknown>, Output>>,
  { fallbackMessage, fields }: { fallbackMessage: string; fields: readonly FormField[] },
) {
  const [state, submit, pending] = useActionState(startingEmpty(withState(action)), null);

  const data = state && !state.error ? state.data : undefined;
  const redirectTo = redirectOf(data);
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);

  const failure = formFailure(state, fallbackMessage);
  const fieldErrors = state?.error && isInputError(state.error) ? state.error.fields : {};
  const fieldError = (name: string): string | undefined => fieldErrors[name]?.[0];
  const summary: ErrorSummaryItem[] = [
    ...(failure ? [{ message: failure }] : []),
    ...fields.flatMap(({ name, id }) => {
      const message = fieldError(name);
      return message ? [{ fieldId: id, message }] : [];
    }),
  ];

  /** Submitting by hand keeps what was typed: React resets a form after its own action runs. */
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => {
      submit(formData);
    });
  };

  return {
    /** For the `<form action>`: what the server renders for posts without JavaScript. */
    formAction: submit,
    onSubmit,
    /** The last answer, when the action succeeded without moving on. */
    data,
    /** Busy while the action runs, and while the browser follows its `redirectTo`. */
    pending: pending || Boolean(redirectTo),
    fieldError,
    summary,
  };
}

function redirectOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('redirectTo' in data)) return undefined;
  return typeof data.redirectTo === 'string' ? data.redirectTo : undefined;
}

/**
 * `withState(action)` typed for an initial state of `null` (nothing submitted
 * yet). The same function object is returned: React needs its form metadata
 * to render the native `<form action>` for the server.
 */
function startingEmpty<T>(
  action: (state: T, formData: FormData) => Promise<T>,
): (state: T | null, formData: FormData) => Promise<T> {
  // withState only serialises the previous state; it never reads into it.
  return action as (state: T | null, formData: FormData) => Promise<T>;
}
