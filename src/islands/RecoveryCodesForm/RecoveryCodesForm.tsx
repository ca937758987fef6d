import { actions } from '../island-actions';
import { recoveryCodesFallbackMessage } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';
import { RecoveryCodeList } from './RecoveryCodeList';

interface RecoveryCodesFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** Where "I have saved my codes" goes once the codes are made: the page, without them. */
  readonly savedHref: string;
}

const passwordId = 'recovery-codes-password';

/**
 * Makes ten new recovery codes, proved with the current password; the old ones stop working. The
 * new codes replace the form, shown once.
 */
export default function RecoveryCodesForm({ xsrfToken, savedHref }: RecoveryCodesFormProps) {
  const form = useFormAction(actions.account.renewRecoveryCodes, {
    fallbackMessage: recoveryCodesFallbackMessage,
    fields: [{ name: 'current_password', id: passwordId }],
  });
  if (form.data) return <RecoveryCodeList codes={form.data.recoveryCodes} savedHref={savedHref} />;

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId={passwordId}>
      <Button type="submit" variant="secondary" loading={form.pending}>
        Make new recovery codes
      </Button>
    </PasswordProofForm>
  );
}
