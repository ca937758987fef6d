import { actions } from '../island-actions';
import { recoveryCodesFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import { CurrentPasswordInput } from '../CurrentPasswordInput';
import { forgetPasswords } from '../forget-passwords';
import { useFormAction } from '../use-form-action';
import { RecoveryCodeList } from './RecoveryCodeList';

export interface RecoveryCodesFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const passwordId = 'recovery-codes-password';

/**
 * Makes ten new recovery codes (docs/PRODUCT.md §11.2), proved with the current password; the old
 * ones stop working. The new codes replace the form, shown once.
 */
export default function RecoveryCodesForm({ xsrfToken }: RecoveryCodesFormProps) {
  const form = useFormAction(actions.account.renewRecoveryCodes, {
    fallbackMessage: recoveryCodesFallbackMessage,
    fields: [{ name: 'current_password', id: passwordId }],
  });
  if (form.data) return <RecoveryCodeList codes={form.data.recoveryCodes} />;

  return (
    <form
      className={styles['form']}
      action={form.formAction}
      noValidate
      onSubmit={forgetPasswords(form.onSubmit)}
    >
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <CurrentPasswordInput id={passwordId} error={form.fieldError('current_password')} />
      <Button type="submit" variant="secondary" loading={form.pending}>
        Make new recovery codes
      </Button>
    </form>
  );
}
