import type { SubmitEvent } from 'react';

/**
 * Wraps a form's submit handler so that the form's password fields are emptied as it is sent:
 * no answer shows a password again, as after a post without JavaScript, where the server renders
 * them empty (GOV.UK's rule). Kept out of useFormAction, so that the sign-in pages' forms, which
 * have a byte budget, carry none of it.
 */
export function forgetPasswords(
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void,
): (event: SubmitEvent<HTMLFormElement>) => void {
  return (event) => {
    onSubmit(event);
    for (const field of event.currentTarget.querySelectorAll<HTMLInputElement>(
      'input[type="password"]',
    )) {
      field.value = '';
    }
  };
}
