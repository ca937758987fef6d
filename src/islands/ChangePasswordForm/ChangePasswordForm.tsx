import { actions } from '../island-actions';
import { passwordChangeFallbackMessage } from '../../lib/messages';
import { newPasswordHint } from '../../lib/password-rules';
import { Button } from '../../ui/Button/Button';
import { TextInput } from '../../ui/TextInput/TextInput';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';

interface ChangePasswordFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [
  { name: 'current_password', id: 'change-password-current' },
  { name: 'password', id: 'change-password-new' },
] as const;

/**
 * Changes the signed-in member's password: the current one, then the new one with the policy's
 * hint. Works as a plain HTML form before hydration and with JavaScript off. Neither password is
 * ever shown again: the server renders both fields empty, and once hydrated both fields are emptied
 * as the form is sent, so a refusal asks for both again (as GOV.UK does).
 */
export default function ChangePasswordForm({ xsrfToken }: ChangePasswordFormProps) {
  const form = useFormAction(actions.account.changePassword, {
    fallbackMessage: passwordChangeFallbackMessage,
    fields,
  });

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId="change-password-current">
      <TextInput
        id="change-password-new"
        label="New password"
        name="password"
        type="password"
        required
        autoComplete="new-password"
        hint={newPasswordHint}
        error={form.fieldError('password')}
      />
      <Button type="submit" loading={form.pending}>
        Change password
      </Button>
    </PasswordProofForm>
  );
}
