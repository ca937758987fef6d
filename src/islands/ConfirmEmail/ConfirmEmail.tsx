import { actions } from '../island-actions';
import { emailConfirmationFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface ConfirmEmailProps {
  readonly xsrfToken: string;
  /** The token from the emailed link (the page's address). */
  readonly confirmationToken: string;
}

const noFields = [] as const;

/**
 * One button, "Confirm my email address": opening the link spends nothing, so a mail scanner that
 * follows links cannot use the token up. A refused link says so.
 */
export default function ConfirmEmail({ xsrfToken, confirmationToken }: ConfirmEmailProps) {
  const confirm = useFormAction(actions.auth.confirmEmail, {
    fallbackMessage: emailConfirmationFallbackMessage,
    fields: noFields,
  });
  return (
    <form
      className={styles['form']}
      action={confirm.formAction}
      noValidate
      onSubmit={confirm.onSubmit}
    >
      <ErrorSummary
        errors={[
          ...confirm.summary,
          ...(confirm.fieldError('token') ? [{ message: 'This link is not valid.' }] : []),
        ]}
      />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="token" value={confirmationToken} />
      <Button type="submit" loading={confirm.pending}>
        Confirm my email address
      </Button>
    </form>
  );
}
