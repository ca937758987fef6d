import { withState } from '@astrojs/react/actions';
import { actions, isInputError } from 'astro:actions';
import { startTransition, useActionState, useEffect } from 'react';
import { signInFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import { formFailure, startingEmpty } from '../form-failure';
import styles from './SignInForm.module.css';

export interface SignInFormProps {
  /** The signed double-submit token, echoed with the form. */
  readonly xsrfToken: string;
  /** What the visitor typed last time, when the page re-renders a failed native post. */
  readonly submittedEmail?: string | undefined;
}

/**
 * Works as a plain HTML form before hydration (and with JavaScript off); once
 * hydrated it submits without a reload and goes on to the page the server chose.
 * Fields are uncontrolled so that hydration never wipes what was typed before it.
 */
export default function SignInForm({ xsrfToken, submittedEmail = '' }: SignInFormProps) {
  const [state, submit, pending] = useActionState(
    startingEmpty(withState(actions.auth.signIn)),
    null,
  );

  const redirectTo = state && !state.error ? state.data.redirectTo : undefined;
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);

  const failure = formFailure(state, signInFallbackMessage);
  const fieldErrors = state?.error && isInputError(state.error) ? state.error.fields : {};
  const emailError = fieldErrors['email']?.[0];
  const passwordError = fieldErrors['password']?.[0];
  const summary = [
    ...(failure ? [{ message: failure }] : []),
    ...(emailError ? [{ fieldId: 'sign-in-email', message: emailError }] : []),
    ...(passwordError ? [{ fieldId: 'sign-in-password', message: passwordError }] : []),
  ];

  return (
    <form
      className={styles['form']}
      action={submit}
      noValidate
      onSubmit={(event) => {
        // Submitting by hand keeps what was typed: React resets a form after its own action runs.
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => {
          submit(data);
        });
      }}
    >
      <ErrorSummary errors={summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="sign-in-email"
        label="Email address"
        name="email"
        type="email"
        required
        autoComplete="username"
        spellCheck={false}
        defaultValue={submittedEmail}
        error={emailError}
      />
      <TextInput
        id="sign-in-password"
        label="Password"
        name="password"
        type="password"
        required
        autoComplete="current-password"
        error={passwordError}
      />
      <Button type="submit" loading={pending || Boolean(redirectTo)}>
        Sign in
      </Button>
    </form>
  );
}
