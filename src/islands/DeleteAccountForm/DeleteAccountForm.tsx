import type { SubmitEvent } from 'react';
import { actions } from '../island-actions';
import { accountDeletionFallbackMessage, accountDeletionPhrase } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

export interface DeleteAccountFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [
  { name: 'current_password', id: 'delete-account-password' },
  { name: 'confirmation', id: 'delete-account-confirmation' },
] as const;

/**
 * Deletes the signed-in member's account (docs/PRODUCT.md §11.2): the current password, and the
 * words "delete my account" typed out. Works as a plain HTML form before hydration and with
 * JavaScript off. The password is never shown again: the form is emptied as it is sent.
 */
export default function DeleteAccountForm({ xsrfToken }: DeleteAccountFormProps) {
  const form = useFormAction(actions.account.deleteAccount, {
    fallbackMessage: accountDeletionFallbackMessage,
    fields,
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    form.onSubmit(event);
    event.currentTarget.reset();
  };

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="delete-account-password"
        label="Current password"
        name="current_password"
        type="password"
        required
        autoComplete="current-password"
        error={form.fieldError('current_password')}
      />
      <TextInput
        id="delete-account-confirmation"
        label={`To confirm, type “${accountDeletionPhrase}”`}
        name="confirmation"
        required
        autoComplete="off"
        spellCheck={false}
        hint="So that no stray press deletes your account."
        error={form.fieldError('confirmation')}
      />
      <Button type="submit" variant="danger" loading={form.pending}>
        Delete my account
      </Button>
    </form>
  );
}
