import { actions } from '../island-actions';
import { loadPasskeyCeremonies } from '../load-passkey-ceremonies';
import { useState, type SubmitEvent, type ReactNode } from 'react';
import { passkeysNeedJavaScriptMessage, passkeyStepFallbackMessage } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import passkeyNote from '../passkey-note.module.css';
import { useHydrated } from '../use-hydrated';

interface PasskeyStepFormProps {
  readonly xsrfToken: string;
  /** What the page adds to the form: "Remember this device", rendered on the server. */
  readonly children?: ReactNode;
}

/**
 * The MFA step taken with one of the member's passkeys. A passkey needs JavaScript: until the
 * island runs, the form says so in place of its button, above the links to the other ways.
 */
export default function PasskeyStepForm({ xsrfToken, children }: PasskeyStepFormProps) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function verify(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const remember = new FormData(event.currentTarget).get('remember_device') === 'yes';
    setPending(true);
    setError(undefined);
    try {
      const { verifyWithPasskey } = await loadPasskeyCeremonies();
      const outcome = await verifyWithPasskey(actions, xsrfToken, remember);
      if ('redirectTo' in outcome) {
        window.location.assign(outcome.redirectTo);
        return;
      }
      if ('error' in outcome) setError(outcome.error);
    } catch {
      setError(passkeyStepFallbackMessage);
    }
    setPending(false);
  }

  return (
    <form className={styles['form']} noValidate onSubmit={(event) => void verify(event)}>
      <ErrorSummary errors={error ? [{ message: error }] : []} />
      {children}
      {hydrated ? (
        <Button type="submit" loading={pending}>
          Use my passkey
        </Button>
      ) : (
        <p className={passkeyNote['note']}>
          {passkeysNeedJavaScriptMessage} Choose another way to verify below.
        </p>
      )}
    </form>
  );
}
