import { withState } from '@astrojs/react/actions';
import type { SafeResult } from 'astro:actions';
import { isInputError } from './island-actions';
import { startTransition, useActionState, useEffect, type SubmitEvent } from 'react';
import type { ErrorSummaryItem } from '../ui/ErrorSummary/ErrorSummary';
import { formFailure, startingEmpty } from './form-failure';

/** A form field as the error summary links to it: its `name` in the form and its element id. */
export interface FormField {
  readonly name: string;
  readonly id: string;
}

/**
 * The one way an island runs an Astro Action from a form (docs/ARCHITECTURE.md): the server
 * renders a real `<form method="POST">` that works without JavaScript; once hydrated, submitting
 * stays on the page, shows the errors (a summary at the top, each message under its field), and
 * follows a `redirectTo` the action answers with.
 */
export function useFormAction<Output>(
  action: (formData: FormData) => Promise<SafeResult<Record<string, unknown>, Output>>,
  {
    fallbackMessage,
    fields,
    sessionRequired = false,
  }: {
    fallbackMessage: string;
    fields: readonly FormField[];
    /**
     * The form is a signed-in member's: a 401 means the session has ended (the server has
     * cleared it), so the page is loaded again and its guard sends the member to SignIn (or the
     * MFA step), as a native post is sent (docs/PRODUCT.md §8). Off for the forms before sign-in,
     * whose 401 is a wrong password.
     */
    sessionRequired?: boolean;
  },
) {
  const [state, submit, pending] = useActionState(startingEmpty(withState(action)), null);

  const data = state && !state.error ? state.data : undefined;
  const redirectTo = redirectOf(data);
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);

  const sessionEnded = sessionRequired && state?.error?.code === 'UNAUTHORIZED';
  useEffect(() => {
    if (sessionEnded) window.location.reload();
  }, [sessionEnded, state]);

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
    pending: pending || Boolean(redirectTo) || sessionEnded,
    fieldError,
    summary,
  };
}

function redirectOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('redirectTo' in data)) return undefined;
  return typeof data.redirectTo === 'string' ? data.redirectTo : undefined;
}
