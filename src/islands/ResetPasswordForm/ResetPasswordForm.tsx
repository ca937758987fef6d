import { actions } from '../island-actions';
import { passwordResetFallbackMessage } from '../../lib/messages';
import { newPasswordHint } from '../../lib/password-rules';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface ResetPasswordFormProps {
  readonly xsrfToken: string;
  /** The token from the emailed link (the page's address). */
  readonly resetToken: string;
}

const fields = [
  { name: 'password', id: 'reset-password-new' },
  { name: 'password_confirmation', id: 'reset-password-confirmation' },
] as const;

/** Sets a new password with the emailed link's token; then SignIn. */
export default function ResetPasswordForm({ xsrfToken, resetToken }: ResetPasswordFormProps) {
  const form = useFormAction(actions.auth.resetPassword, {
    fallbackMessage: passwordResetFallbackMessage,
    fields,
  });
  // A token that does not fit the form is a bad link, which the summary reports.
  const tokenError = form.fieldError('token');

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary
        errors={tokenError ? [...form.summary, { message: tokenError }] : form.summary}
      />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="token" value={resetToken} />
      <TextInput
        id="reset-password-new"
        label="New password"
        name="password"
        type="password"
        required
        autoComplete="new-password"
        hint={newPasswordHint}
        error={form.fieldError('password')}
      />
      <TextInput
        id="reset-password-confirmation"
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        required
        autoComplete="new-password"
        error={form.fieldError('password_confirmation')}
      />
      <Button type="submit" loading={form.pending}>
        Change password
      </Button>
    </form>
  );
}
