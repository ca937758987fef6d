import { actions } from '../island-actions';
import { mfaVerifyFallbackMessage } from '../../lib/messages';
import { RecoveryCodeList } from '../RecoveryCodesForm/RecoveryCodeList';
import { useFormAction } from '../use-form-action';
import { AppCodeFields, appCodeFields } from '../AppCodeForm/AppCodeFields';

export interface ConfirmAppFormProps {
  readonly xsrfToken: string;
  /** The setup's address, posted back so that a refusal without JavaScript shows it again. */
  readonly setupUri: string;
}

/**
 * The app's first code confirms it, in the Account area (docs/PRODUCT.md §11.2). When the app is
 * the member's first strong factor, the recovery codes made with it replace the form, shown once.
 */
export default function ConfirmAppForm({ xsrfToken, setupUri }: ConfirmAppFormProps) {
  const form = useFormAction(actions.account.confirmApp, {
    fallbackMessage: mfaVerifyFallbackMessage,
    fields: appCodeFields,
  });
  if (form.data && 'recoveryCodes' in form.data) {
    return <RecoveryCodeList codes={form.data.recoveryCodes} />;
  }
  return (
    <AppCodeFields xsrfToken={xsrfToken} form={form} submitLabel="Turn on the authenticator app">
      <input type="hidden" name="setup_uri" value={setupUri} />
    </AppCodeFields>
  );
}
