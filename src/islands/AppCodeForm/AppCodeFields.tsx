import type { ReactNode } from 'react';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import type { useFormAction } from '../use-form-action';

interface AppCodeFieldsProps {
  readonly xsrfToken: string;
  /** The form's state, from {@link useFormAction} with {@link appCodeFields}. */
  readonly form: Pick<
    ReturnType<typeof useFormAction>,
    'formAction' | 'onSubmit' | 'summary' | 'fieldError' | 'pending'
  >;
  readonly submitLabel: string;
  /** Fields the form posts besides the code (hidden ones, a checkbox), after the code's field. */
  readonly children?: ReactNode;
}

/** The fields of a form that takes one code of the authenticator app, as the summary links them. */
export const appCodeFields = [{ name: 'code', id: 'app-code' }] as const;

/**
 * A code from the member's authenticator app: six digits that change every 30 seconds. A plain
 * form, so it works without JavaScript.
 */
export function AppCodeFields({ xsrfToken, form, submitLabel, children }: AppCodeFieldsProps) {
  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="app-code"
        label="Code from your authenticator app"
        name="code"
        type="number"
        required
        autoComplete="one-time-code"
        hint="The 6 digits the app shows for Member Concierge now. A new code comes every 30 seconds."
        error={form.fieldError('code')}
      />
      {children}
      <Button type="submit" loading={form.pending}>
        {submitLabel}
      </Button>
    </form>
  );
}
