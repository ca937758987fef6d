import { actions } from '../island-actions';
import { companySignInFallbackMessage } from '../../lib/messages';
import { RecoveryCodeFields, recoveryCodeFields } from '../RecoveryCodeForm/RecoveryCodeFields';
import { useFormAction } from '../use-form-action';

interface CompanySignInRecoveryCodeFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

/**
 * One of the recovery codes of the account the company's provider named: it proves the account as
 * its password would, and links it to the company's sign-in. The code is spent.
 */
export default function CompanySignInRecoveryCodeForm({
  xsrfToken,
}: CompanySignInRecoveryCodeFormProps) {
  const form = useFormAction(actions.auth.linkCompanySignInByRecoveryCode, {
    fallbackMessage: companySignInFallbackMessage,
    fields: recoveryCodeFields,
  });
  return <RecoveryCodeFields xsrfToken={xsrfToken} form={form} submitLabel="Connect and sign in" />;
}
