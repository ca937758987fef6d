import type { ReactNode } from 'react';
import { actions } from '../island-actions';
import { recoveryCodeFallbackMessage } from '../../lib/messages';
import { useFormAction } from '../use-form-action';
import { RecoveryCodeFields, recoveryCodeFields } from './RecoveryCodeFields';

interface RecoveryCodeFormProps {
  readonly xsrfToken: string;
  /** What the page adds to the form: "Remember this device", rendered on the server. */
  readonly children?: ReactNode;
}

/**
 * The MFA step taken with one of the member's recovery codes, when their phone and app are out of
 * reach.
 */
export default function RecoveryCodeForm({ xsrfToken, children }: RecoveryCodeFormProps) {
  const form = useFormAction(actions.mfa.verifyRecoveryCode, {
    fallbackMessage: recoveryCodeFallbackMessage,
    fields: recoveryCodeFields,
  });
  return (
    <RecoveryCodeFields xsrfToken={xsrfToken} form={form} submitLabel="Verify">
      {children}
    </RecoveryCodeFields>
  );
}
