import { actions } from '../island-actions';
import { passwordChangeFallbackMessage } from '../../lib/messages';
import { newPasswordHint } from '../../lib/password-rules';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { forgetPasswords } from '../forget-passwords';
import { useFormAction } from '../use-form-action';
import { CurrentPasswordInput } from '../CurrentPasswordInput';

export interface ChangePasswordFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [
  { name: 'current_password', id: 'change-password-current' },
  { name: 'password', id: 'change-password-new' },
] as const;

/**
 * Changes the signed-in member's password (docs/PRODUCT.md §11.2): the current one, then the new
 * one with the policy's hint. Works as a plain HTML form before hydration and with JavaScript off.
 * Neither password is ever shown again: the server renders both fields empty, and once hydrated
 * both fields are emptied as the form is sent, so a refusal asks for both again (as GOV.UK does).
 */
export default function ChangePasswordForm({ xsrfToken }: ChangePasswordFormProps) {
  const form = useFormAction(actions.account.changePassword, {
    fallbackMessage: passwordChangeFallbackMessage,
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
        id="change-password-current"
        error={form.fieldError('current_password')}
      />
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
    </form>
  );
}
