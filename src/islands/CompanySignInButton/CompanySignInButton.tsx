import { actions } from '../island-actions';
import { companySignInFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { useFormAction } from '../use-form-action';
import styles from '../account-form.module.css';

interface CompanySignInButtonProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  readonly companySlug: string;
  readonly companyName: string;
}

/**
 * "Continue with <company>": a sign-in with the company's own provider, which creates the account
 * on the first visit. A plain form, so it works before hydration and without JavaScript.
 */
export default function CompanySignInButton({
  xsrfToken,
  companySlug,
  companyName,
}: CompanySignInButtonProps) {
  const form = useFormAction(actions.auth.startCompanySignIn, {
    fallbackMessage: companySignInFallbackMessage,
    fields: [],
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="company_slug" value={companySlug} />
      <Button type="submit" loading={form.pending}>
        Continue with {companyName}
      </Button>
    </form>
  );
}
