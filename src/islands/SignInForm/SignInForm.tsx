import { useRef, useState } from 'react';
import { actions } from '../island-actions';
import { loadPasskeyCeremonies } from '../load-passkey-ceremonies';
import type { CeremonyOutcome } from '../passkey-ceremonies';
import {
  passkeySignInFallbackMessage,
  passkeysNeedJavaScriptMessage,
  signInFallbackMessage,
} from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import { useFormAction } from '../use-form-action';
import { useHydrated } from '../use-hydrated';
import styles from '../account-form.module.css';
import passkeyNote from '../passkey-note.module.css';

interface SignInFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** What the visitor typed last time, when the page re-renders a failed native post. */
  readonly submittedEmail?: string | undefined;
}

const fields = [
  { name: 'email', id: 'sign-in-email' },
  { name: 'password', id: 'sign-in-password' },
] as const;

/**
 * Works as a plain HTML form before hydration (and with JavaScript off); once
 * hydrated it submits without a reload and goes on to the page the server chose.
 * Fields are uncontrolled so that hydration never wipes what was typed before it.
 *
 * A passkey signs in alone: from its button, or from the email field's suggestions, which the
 * browser fills with the member's passkeys once the field is first focused. Either loads the
 * WebAuthn code then, not before.
 */
export default function SignInForm({ xsrfToken, submittedEmail = '' }: SignInFormProps) {
  const form = useFormAction(actions.auth.signIn, {
    fallbackMessage: signInFallbackMessage,
    fields,
  });
  const hydrated = useHydrated();
  const [passkeyError, setPasskeyError] = useState<string>();
  const [passkeyPending, setPasskeyPending] = useState(false);
  const autofillAsked = useRef(false);

  function settle(outcome: CeremonyOutcome) {
    if ('redirectTo' in outcome) window.location.assign(outcome.redirectTo);
    else if ('error' in outcome) setPasskeyError(outcome.error);
  }

  function signInWithPasskey(autofill: boolean) {
    if (!autofill) {
      setPasskeyPending(true);
      setPasskeyError(undefined);
    }
    loadPasskeyCeremonies()
      .then(({ signInWithPasskey: start }) => start(actions, xsrfToken, autofill))
      .then(settle, () => {
        if (!autofill) setPasskeyError(passkeySignInFallbackMessage);
      })
      .finally(() => {
        if (!autofill) setPasskeyPending(false);
      });
  }

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={passkeyError ? [{ message: passkeyError }] : form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="sign-in-email"
        label="Email address"
        name="email"
        type="email"
        required
        autoComplete="username webauthn"
        spellCheck={false}
        onFocus={() => {
          if (autofillAsked.current) return;
          autofillAsked.current = true;
          signInWithPasskey(true);
        }}
        defaultValue={submittedEmail}
        error={form.fieldError('email')}
      />
      <TextInput
        id="sign-in-password"
        label="Password"
        name="password"
        type="password"
        required
        autoComplete="current-password"
        error={form.fieldError('password')}
      />
      <Button type="submit" loading={form.pending}>
        Sign in
      </Button>
      {hydrated ? (
        <Button
          type="button"
          variant="secondary"
          loading={passkeyPending}
          onClick={() => {
            signInWithPasskey(false);
          }}
        >
          Sign in with a passkey
        </Button>
      ) : (
        // Until the island runs, and for good without JavaScript; as tall as the button it
        // becomes, so nothing below moves.
        <p className={passkeyNote['note']}>{passkeysNeedJavaScriptMessage}</p>
      )}
    </form>
  );
}
