import type { ReactNode } from 'react';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import type { useFormAction } from '../use-form-action';

interface RecoveryCodeFieldsProps {
  readonly xsrfToken: string;
  /** The form's state, from {@link useFormAction} with {@link recoveryCodeFields}. */
  readonly form: Pick<
    ReturnType<typeof useFormAction>,
    'formAction' | 'onSubmit' | 'summary' | 'fieldError' | 'pending'
  >;
  readonly submitLabel: string;
  /** Fields the form posts besides the code (a checkbox), after the code's field. */
  readonly children?: ReactNode;
}

/** The fields of a form that takes one recovery code, as the summary links them. */
export const recoveryCodeFields = [{ name: 'code', id: 'recovery-code' }] as const;

/**
 * One of the member's recovery codes, for when their phone and app are out of reach. A plain
 * form, so it works without JavaScript.
 */
export function RecoveryCodeFields({
  xsrfToken,
  form,
  submitLabel,
  children,
}: RecoveryCodeFieldsProps) {
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
        {submitLabel}
      </Button>
    </form>
  );
}
