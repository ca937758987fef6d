import type { SubmitEvent } from 'react';
import { actions } from '../island-actions';
import { twoStepTurnOffFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

export interface TurnOffTwoStepFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
}

const fields = [{ name: 'current_password', id: 'turn-off-two-step-password' }] as const;

/**
 * Turns two-step verification off (docs/PRODUCT.md §11.2), proved with the current password.
 * Offered only where the member's company does not require the step. The password is never
 * shown again: the form is emptied as it is sent.
 */
export default function TurnOffTwoStepForm({ xsrfToken }: TurnOffTwoStepFormProps) {
  const form = useFormAction(actions.account.turnOffTwoStep, {
    fallbackMessage: twoStepTurnOffFallbackMessage,
    fields,
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    form.onSubmit(event);
    event.currentTarget.reset();
  };

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="turn-off-two-step-password"
        label="Current password"
        name="current_password"
        type="password"
        required
        autoComplete="current-password"
        error={form.fieldError('current_password')}
      />
      <Button type="submit" variant="secondary" loading={form.pending}>
        Turn off two-step verification
      </Button>
    </form>
  );
}
