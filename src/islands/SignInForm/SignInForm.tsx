import { actions } from '../island-actions';
import { signInFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import { useFormAction } from '../use-form-action';
import styles from '../account-form.module.css';

export interface SignInFormProps {
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
 */
export default function SignInForm({ xsrfToken, submittedEmail = '' }: SignInFormProps) {
  const form = useFormAction(actions.auth.signIn, {
    fallbackMessage: signInFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
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
    </form>
  );
}
