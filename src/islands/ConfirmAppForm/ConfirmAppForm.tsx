import { actions } from '../island-actions';
import { mfaVerifyFallbackMessage } from '../../lib/messages';
import type { SubmitEvent } from 'react';
import { useFormAction } from '../use-form-action';
import { AppCodeFields, appCodeFields } from '../AppCodeForm/AppCodeFields';

interface ConfirmAppFormProps {
  readonly xsrfToken: string;
  /** The setup's address, posted back so that a refusal without JavaScript shows it again. */
  readonly setupUri: string;
}

/**
 * The app's first code confirms it, in the Account area. Posted as without JavaScript, whether or
 * not it runs: the page that answers shows the app on in every section, and the recovery codes the
 * app brings when it is the member's first strong factor.
 */
export default function ConfirmAppForm({ xsrfToken, setupUri }: ConfirmAppFormProps) {
  const form = useFormAction(actions.account.confirmApp, {
    fallbackMessage: mfaVerifyFallbackMessage,
    fields: appCodeFields,
  });
  const postAsPage = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.currentTarget.submit();
  };
  return (
    <AppCodeFields
      xsrfToken={xsrfToken}
      form={{ ...form, onSubmit: postAsPage }}
      submitLabel="Turn on the authenticator app"
    >
      <input type="hidden" name="setup_uri" value={setupUri} />
    </AppCodeFields>
  );
}
