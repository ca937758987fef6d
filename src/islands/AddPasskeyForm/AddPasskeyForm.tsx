import { actions } from '../island-actions';
import { loadPasskeyCeremonies } from '../load-passkey-ceremonies';
import { useRef, useState, type SubmitEvent } from 'react';
import { passkeyAddFallbackMessage, passkeysNeedJavaScriptMessage } from '../../lib/messages';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary, type ErrorSummaryItem } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import passkeyNote from '../passkey-note.module.css';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { useHydrated } from '../use-hydrated';

interface AddPasskeyFormProps {
  /** The signed double-submit token, echoed with each call. */
  readonly xsrfToken: string;
  /** Why the page's last post of a passkey was refused, shown at the top of the form. */
  readonly failure?: string | undefined;
}

const nameId = 'passkey-name';
const nameMaxLength = 60;

/** The rules of the name, checked before the browser's dialog, so no passkey is made for nothing. */
function nameProblem(name: string): string | undefined {
  if (name === '') return 'Enter a name for the passkey';
  if (name.length > nameMaxLength) return 'The name must be 60 characters or fewer';
  return undefined;
}

/**
 * Adds a passkey to the member's account: the member names it, the browser makes it (the device
 * asks for a fingerprint, a face or its screen lock), the API keeps it. A passkey needs JavaScript:
 * until the island runs, the form says so in place of its button. The passkey the browser made is
 * posted with a form of the page's own, so that the page that answers shows the account as it now
 * is: the passkey listed, and the recovery codes a first strong factor brings.
 */
export default function AddPasskeyForm({ xsrfToken, failure }: AddPasskeyFormProps) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<readonly ErrorSummaryItem[]>(
    failure ? [{ message: failure }] : [],
  );
  const saveForm = useRef<HTMLFormElement>(null);
  const savedName = useRef<HTMLInputElement>(null);
  const savedCredential = useRef<HTMLInputElement>(null);

  async function add(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('name');
    const name = typeof typed === 'string' ? typed.trim() : '';
    const problem = nameProblem(name);
    if (problem) {
      setErrors([{ fieldId: nameId, message: problem }]);
      return;
    }
    setPending(true);
    setErrors([]);
    try {
      const { makePasskey } = await loadPasskeyCeremonies();
      const outcome = await makePasskey(actions, xsrfToken);
      if ('credential' in outcome) {
        postPasskey(name, outcome.credential);
        return;
      }
      if ('redirectTo' in outcome) {
        window.location.assign(outcome.redirectTo);
        return;
      }
      if ('error' in outcome) {
        const nameError = outcome.fieldErrors?.['name'];
        setErrors([
          nameError ? { fieldId: nameId, message: nameError } : { message: outcome.error },
        ]);
      }
    } catch {
      setErrors([{ message: passkeyAddFallbackMessage }]);
    }
    setPending(false);
  }

  /** Posts the passkey as a form without JavaScript would; the answer is a page. */
  function postPasskey(name: string, credential: string) {
    if (!saveForm.current || !savedName.current || !savedCredential.current) return;
    savedName.current.value = name;
    savedCredential.current.value = credential;
    saveForm.current.submit();
  }

  const nameError = errors.find((error) => error.fieldId === nameId)?.message;
  return (
    <>
      <form ref={saveForm} method="post" action={actions.account.addPasskey.toString()} hidden>
        <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
        <input type="hidden" name="name" ref={savedName} />
        <input type="hidden" name="credential" ref={savedCredential} />
      </form>
      <form className={styles['form']} noValidate onSubmit={(event) => void add(event)}>
        <ErrorSummary errors={errors} />
        <TextInput
          id={nameId}
          label="Name of the passkey"
          name="name"
          required
          autoComplete="off"
          hint="So you can tell it apart later, like the device or the password manager it is kept in."
          error={nameError}
        />
        {hydrated ? (
          <Button type="submit" loading={pending}>
            Add a passkey
          </Button>
        ) : (
          <p className={passkeyNote['note']}>
            {passkeysNeedJavaScriptMessage} Your other ways to sign in still work.
          </p>
        )}
      </form>
    </>
  );
}
