import { actions } from '../island-actions';
import { accountDeletionFallbackMessage, accountDeletionPhrase } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { forgetPasswords } from '../forget-passwords';
import { useFormAction } from '../use-form-action';
import { CurrentPasswordInput } from '../CurrentPasswordInput';

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
 * JavaScript off. The password is never shown again: its field is emptied as the form is sent.
 */
export default function DeleteAccountForm({ xsrfToken }: DeleteAccountFormProps) {
  const form = useFormAction(actions.account.deleteAccount, {
    fallbackMessage: accountDeletionFallbackMessage,
    fields,
  });

  return (
    <form
      className={styles['form']}
      action={form.formAction}
      noValidate
      onSubmit={forgetPasswords(form.onSubmit)}
    >
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <CurrentPasswordInput
        id="delete-account-password"
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
