import { actions } from '../island-actions';
import { twoStepTurnOffFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import { forgetPasswords } from '../forget-passwords';
import { useFormAction } from '../use-form-action';
import { CurrentPasswordInput } from '../CurrentPasswordInput';

export interface TurnOffTwoStepFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [{ name: 'current_password', id: 'turn-off-two-step-password' }] as const;

/**
 * Turns two-step verification off (docs/PRODUCT.md §11.2), proved with the current password.
 * Offered only where the member's company does not require the step. The password is never
 * shown again: its field is emptied as the form is sent.
 */
export default function TurnOffTwoStepForm({ xsrfToken }: TurnOffTwoStepFormProps) {
  const form = useFormAction(actions.account.turnOffTwoStep, {
    fallbackMessage: twoStepTurnOffFallbackMessage,
    fields,
  });

  return (
    <form
      className={styles['form']}
      action={form.formAction}
      noValidate
      onSubmit={forgetPasswords(form.onSubmit)}
    >
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <CurrentPasswordInput
        id="turn-off-two-step-password"
        error={form.fieldError('current_password')}
      />
      <Button type="submit" variant="secondary" loading={form.pending}>
        Turn off two-step verification
      </Button>
    </form>
  );
}
