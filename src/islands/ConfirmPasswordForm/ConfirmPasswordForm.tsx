import { actions } from '../island-actions';
import { reauthenticationFallbackMessage } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';

interface ConfirmPasswordFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** The page to come back to once the password is confirmed. */
  readonly returnTo: '/account/security' | '/mfa-enrollment';
}

const passwordId = 'confirm-password';

/**
 * The password given again before a way to sign in is added: a stolen session alone cannot add the
 * thief's own passkey, app or phone. Success reloads the page that asked, which then offers what
 * can be added.
 */
export default function ConfirmPasswordForm({ xsrfToken, returnTo }: ConfirmPasswordFormProps) {
  const form = useFormAction(actions.account.confirmPassword, {
    fallbackMessage: reauthenticationFallbackMessage,
    fields: [{ name: 'current_password', id: passwordId }],
  });

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId={passwordId}>
      <input type="hidden" name="return_to" value={returnTo} />
      <Button type="submit" loading={form.pending}>
        Confirm password
      </Button>
    </PasswordProofForm>
  );
}
