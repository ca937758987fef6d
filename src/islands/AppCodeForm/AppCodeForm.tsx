import { actions } from '../island-actions';
import { mfaVerifyFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

export interface AppCodeFormProps {
  readonly xsrfToken: string;
  /**
   * `sign-in`: the code takes the MFA step (MfaEnrollment). `setup`: the app's first code
   * confirms it, in the Account area (docs/PRODUCT.md §11.2).
   */
  readonly purpose: 'sign-in' | 'setup';
  /** The setup's address, posted back so that a refusal without JavaScript shows it again. */
  readonly setupUri?: string | undefined;
}

const fields = [{ name: 'code', id: 'app-code' }] as const;

/**
 * A code from the member's authenticator app (docs/PRODUCT.md §11.2): six digits that change
 * every 30 seconds. A plain form, so it works without JavaScript.
 */
export default function AppCodeForm({ xsrfToken, purpose, setupUri }: AppCodeFormProps) {
  const form = useFormAction(
    purpose === 'sign-in' ? actions.mfa.verify : actions.account.confirmApp,
    { fallbackMessage: mfaVerifyFallbackMessage, fields },
  );

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      {purpose === 'sign-in' && <input type="hidden" name="method" value="app" />}
      {setupUri && <input type="hidden" name="setup_uri" value={setupUri} />}
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
      <Button type="submit" loading={form.pending}>
        {purpose === 'sign-in' ? 'Verify' : 'Turn on the authenticator app'}
      </Button>
    </form>
  );
}
