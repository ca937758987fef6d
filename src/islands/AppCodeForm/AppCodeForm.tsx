import type { ReactNode } from 'react';
import { actions } from '../island-actions';
import { mfaVerifyFallbackMessage } from '../../lib/messages';
import { useFormAction } from '../use-form-action';
import { AppCodeFields, appCodeFields } from './AppCodeFields';

interface AppCodeFormProps {
  readonly xsrfToken: string;
  /** What the page adds to the form: "Remember this device", rendered on the server. */
  readonly children?: ReactNode;
}

/** The MFA step taken with a code of the member's authenticator app. */
export default function AppCodeForm({ xsrfToken, children }: AppCodeFormProps) {
  const form = useFormAction(actions.mfa.verify, {
    fallbackMessage: mfaVerifyFallbackMessage,
    fields: appCodeFields,
  });
  return (
    <AppCodeFields xsrfToken={xsrfToken} form={form} submitLabel="Verify">
      <input type="hidden" name="method" value="app" />
      {children}
    </AppCodeFields>
  );
}
