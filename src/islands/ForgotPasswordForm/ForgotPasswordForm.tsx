import { actions } from '../island-actions';
import { passwordResetFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { Message } from '../../ui/Message/Message';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface ForgotPasswordFormProps {
  readonly xsrfToken: string;
  /** What the visitor typed last time, when the page re-renders a native post. */
  readonly submittedEmail?: string | undefined;
}

const fields = [{ name: 'email', id: 'forgot-password-email' }] as const;

/**
 * Asks for a link to reset the password. The answer reads the same whether or not the address has
 * an account; the form stays, to send the link again.
 */
export default function ForgotPasswordForm({
  xsrfToken,
  submittedEmail = '',
}: ForgotPasswordFormProps) {
  const form = useFormAction(actions.auth.requestPasswordReset, {
    fallbackMessage: passwordResetFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      {form.data && <Message severity="success">{form.data.notice}</Message>}
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="forgot-password-email"
        label="Email address"
        name="email"
        type="email"
        required
        autoComplete="email"
        spellCheck={false}
        defaultValue={submittedEmail}
        error={form.fieldError('email')}
      />
      <Button type="submit" loading={form.pending}>
        {form.data ? 'Send the link again' : 'Send reset link'}
      </Button>
    </form>
  );
}
