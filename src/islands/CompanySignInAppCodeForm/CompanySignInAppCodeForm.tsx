import { actions } from '../island-actions';
import { companySignInFallbackMessage } from '../../lib/messages';
import { AppCodeFields, appCodeFields } from '../AppCodeForm/AppCodeFields';
import { useFormAction } from '../use-form-action';

interface CompanySignInAppCodeFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

/**
 * A code of the authenticator app of the account the company's provider named: it proves the
 * account as its password would, and links it to the company's sign-in.
 */
export default function CompanySignInAppCodeForm({ xsrfToken }: CompanySignInAppCodeFormProps) {
  const form = useFormAction(actions.auth.linkCompanySignInByAppCode, {
    fallbackMessage: companySignInFallbackMessage,
    fields: appCodeFields,
  });
  return <AppCodeFields xsrfToken={xsrfToken} form={form} submitLabel="Connect and sign in" />;
}
