import { actions } from '../island-actions';
import { accountDeletionFallbackMessage, accountDeletionPhrase } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { TextInput } from '../../ui/TextInput/TextInput';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';

interface DeleteAccountFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [
  { name: 'current_password', id: 'delete-account-password' },
  { name: 'confirmation', id: 'delete-account-confirmation' },
] as const;

/**
 * Deletes the signed-in member's account: the current password, and the words "delete my account"
 * typed out. Works as a plain HTML form before hydration and with JavaScript off. The password is
 * never shown again: its field is emptied as the form is sent.
 */
export default function DeleteAccountForm({ xsrfToken }: DeleteAccountFormProps) {
  const form = useFormAction(actions.account.deleteAccount, {
    fallbackMessage: accountDeletionFallbackMessage,
    fields,
  });

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId="delete-account-password">
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
    </PasswordProofForm>
  );
}
