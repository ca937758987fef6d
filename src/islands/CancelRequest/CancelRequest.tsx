import { useEffect, useId, useRef, useState } from 'react';
import { cancelFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { actions } from '../island-actions';
import styles from '../request-form.module.css';
import { useFormAction } from '../use-form-action';
import { useHydrated } from '../use-hydrated';

interface CancelRequestProps {
  readonly requestId: string;
  readonly xsrfToken: string;
}

/**
 * Cancelling an open request. Once hydrated, "Cancel request" first asks, with the question
 * focused, and only "Yes, cancel request" sends; "Keep request" goes back to the button. Without
 * JavaScript the button posts the form at once.
 */
export default function CancelRequest({ requestId, xsrfToken }: CancelRequestProps) {
  const hydrated = useHydrated();
  const form = useFormAction(actions.requests.cancel, {
    fallbackMessage: cancelFallbackMessage,
    fields: [],
  });
  const [confirming, setConfirming] = useState(false);
  const questionId = useId();
  const questionRef = useRef<HTMLParagraphElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const focusStartAgain = useRef(false);

  useEffect(() => {
    if (confirming) {
      questionRef.current?.focus();
    } else if (focusStartAgain.current) {
      focusStartAgain.current = false;
      startRef.current?.focus();
    }
  }, [confirming]);

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="request_id" value={requestId} />
      {!hydrated ? (
        <div className={styles['actions']}>
          <Button type="submit" variant="secondary">
            Cancel request
          </Button>
        </div>
      ) : confirming ? (
        <div className={styles['confirm']} role="group" aria-labelledby={questionId}>
          <p id={questionId} ref={questionRef} className={styles['question']} tabIndex={-1}>
            Cancel this request? Your concierge stops working on it, and it cannot be reopened.
          </p>
          <div className={styles['actions']}>
            <Button type="submit" loading={form.pending}>
              Yes, cancel request
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                focusStartAgain.current = true;
                setConfirming(false);
              }}
            >
              Keep request
            </Button>
          </div>
        </div>
      ) : (
        <div className={styles['actions']}>
          <Button
            ref={startRef}
            variant="secondary"
            onClick={() => {
              setConfirming(true);
            }}
          >
            Cancel request
          </Button>
        </div>
      )}
    </form>
  );
}
