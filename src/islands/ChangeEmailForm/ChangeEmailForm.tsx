import { actions } from '../island-actions';
import { emailChangeFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import { Message } from '../../ui/Message/Message';
import styles from '../account-form.module.css';
import { forgetPasswords } from '../forget-passwords';
import { useFormAction } from '../use-form-action';
import { CurrentPasswordInput } from '../CurrentPasswordInput';

interface ChangeEmailFormProps {
  readonly xsrfToken: string;
  /** The address of a refused post without JavaScript, shown again for correcting. */
  readonly submittedEmail?: string | undefined;
}

const fields = [
  { name: 'email', id: 'change-email-new' },
  { name: 'current_password', id: 'change-email-current' },
] as const;

/**
 * Asks to change the signed-in member's address: the new address and the current password. The
 * address changes only when the link mailed to it is followed. The password is never shown again:
 * its field is emptied as the form is sent.
 */
export default function ChangeEmailForm({ xsrfToken, submittedEmail = '' }: ChangeEmailFormProps) {
  const form = useFormAction(actions.account.changeEmail, {
    fallbackMessage: emailChangeFallbackMessage,
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
      {form.data && <Message severity="success">{form.data.notice}</Message>}
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="change-email-new"
        label="New email address"
        name="email"
        type="email"
        required
        autoComplete="email"
        spellCheck={false}
        defaultValue={submittedEmail}
        error={form.fieldError('email')}
      />
      <CurrentPasswordInput id="change-email-current" error={form.fieldError('current_password')} />
      <Button type="submit" loading={form.pending}>
        Change email address
      </Button>
    </form>
  );
}
