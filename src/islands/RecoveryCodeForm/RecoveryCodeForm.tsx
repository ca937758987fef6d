import type { ReactNode } from 'react';
import { actions } from '../island-actions';
import { recoveryCodeFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface RecoveryCodeFormProps {
  readonly xsrfToken: string;
  /** What the page adds to the form: "Remember this device", rendered on the server. */
  readonly children?: ReactNode;
}

const fields = [{ name: 'code', id: 'recovery-code' }] as const;

/**
 * The MFA step taken with one of the member's recovery codes, when their phone and app are out of
 * reach. A plain form, so it works without JavaScript.
 */
export default function RecoveryCodeForm({ xsrfToken, children }: RecoveryCodeFormProps) {
  const form = useFormAction(actions.mfa.verifyRecoveryCode, {
    fallbackMessage: recoveryCodeFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="recovery-code"
        label="Recovery code"
        name="code"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint="One of the recovery codes you saved, like abcde-23456. Each code works once."
        error={form.fieldError('code')}
      />
      {children}
      <Button type="submit" loading={form.pending}>
        Verify
      </Button>
    </form>
  );
}
