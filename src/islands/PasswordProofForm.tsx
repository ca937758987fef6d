import type { ReactNode } from 'react';
import { xsrfFieldName } from '../lib/xsrf-names';
import { ErrorSummary } from '../ui/ErrorSummary/ErrorSummary';
import styles from './account-form.module.css';
import { CurrentPasswordInput } from './CurrentPasswordInput';
import { forgetPasswords } from './forget-passwords';
import type { useFormAction } from './use-form-action';

interface PasswordProofFormProps {
  /** The form's action as `useFormAction` runs it. */
  readonly form: Pick<
    ReturnType<typeof useFormAction>,
    'formAction' | 'onSubmit' | 'summary' | 'fieldError'
  >;
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** The id of the "Current password" field, which the error summary links to. */
  readonly passwordId: string;
  /** What the form asks after the password, and its button. */
  readonly children: ReactNode;
}

/**
 * An Account form that a change proves with the current password: the summary of its errors, the
 * form token, "Current password", then the change's own fields. Every password field is emptied as
 * the form is sent.
 */
export function PasswordProofForm({
  form,
  xsrfToken,
  passwordId,
  children,
}: PasswordProofFormProps) {
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
      {children}
    </form>
  );
}
