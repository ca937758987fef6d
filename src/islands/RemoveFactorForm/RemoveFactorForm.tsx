import { actions } from '../island-actions';
import {
  appRemoveFallbackMessage,
  passkeyRemoveFallbackMessage,
  phoneRemoveFallbackMessage,
  twoStepTurnOffFallbackMessage,
} from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { PasswordProofForm } from '../PasswordProofForm';
import { useFormAction } from '../use-form-action';

interface RemoveFactorFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** `all`: turns two-step verification off. `app`, `phone`, `passkey`: that factor alone. */
  readonly factor: 'all' | 'app' | 'phone' | 'passkey';
  /** The passkey to remove, with `factor` "passkey". */
  readonly passkeyId?: string | undefined;
}

/** What each removal posts to, says, and calls its password field. */
const removals = {
  all: {
    action: actions.account.turnOffTwoStep,
    fallbackMessage: twoStepTurnOffFallbackMessage,
    passwordId: 'turn-off-two-step-password',
    button: 'Turn off two-step verification',
  },
  app: {
    action: actions.account.removeApp,
    fallbackMessage: appRemoveFallbackMessage,
    passwordId: 'remove-app-password',
    button: 'Remove the authenticator app',
  },
  phone: {
    action: actions.account.removePhone,
    fallbackMessage: phoneRemoveFallbackMessage,
    passwordId: 'remove-phone-password',
    button: 'Remove this phone',
  },
  passkey: {
    action: actions.account.removePasskey,
    fallbackMessage: passkeyRemoveFallbackMessage,
    passwordId: 'remove-passkey-password',
    button: 'Remove this passkey',
  },
} as const;

/**
 * Removes a second factor, proved with the current password: every one (two-step verification off),
 * the authenticator app, or the phone. Offered only where the member's company does not need what
 * is removed. The password is never shown again: its field is emptied as the form is sent.
 */
export default function RemoveFactorForm({ xsrfToken, factor, passkeyId }: RemoveFactorFormProps) {
  const removal = removals[factor];
  // One form per passkey on the page: each password field needs an id of its own.
  const passwordId = passkeyId ? `${removal.passwordId}-${passkeyId}` : removal.passwordId;
  const form = useFormAction(removal.action, {
    fallbackMessage: removal.fallbackMessage,
    fields: [{ name: 'current_password', id: passwordId }],
  });

  return (
    <PasswordProofForm form={form} xsrfToken={xsrfToken} passwordId={passwordId}>
      {passkeyId && <input type="hidden" name="passkey_id" value={passkeyId} />}
      <Button type="submit" variant="secondary" loading={form.pending}>
        {removal.button}
      </Button>
    </PasswordProofForm>
  );
}
