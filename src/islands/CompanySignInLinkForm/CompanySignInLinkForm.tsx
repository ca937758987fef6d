import { actions } from '../island-actions';
import { companySignInFallbackMessage } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';

interface CompanySignInLinkFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const passwordId = 'company-link-password';

/**
 * The password of the account the company's provider named: only its owner can link the account
 * to the company's sign-in. On success the member is signed in and goes on.
 */
export default function CompanySignInLinkForm({ xsrfToken }: CompanySignInLinkFormProps) {
  const form = useFormAction(actions.auth.linkCompanySignIn, {
    fallbackMessage: companySignInFallbackMessage,
    fields: [{ name: 'current_password', id: passwordId }],
  });

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId={passwordId}>
      <Button type="submit" loading={form.pending}>
        Connect and sign in
      </Button>
    </PasswordProofForm>
  );
}
