import type { ReactNode } from 'react';
import { actions } from '../island-actions';
import { signInFallbackMessage } from '../../lib/messages';
import { newPasswordHint } from '../../lib/password-rules';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { Chip } from '../../ui/Chip/Chip';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface SignUpFormProps {
  readonly xsrfToken: string;
  /** The company slug of the sign-up link, sent as `company_slug`. */
  readonly companySlug?: string | undefined;
  /** What the visitor typed last time, when the page re-renders a native post (no password). */
  readonly submitted?: SubmittedAccount;
  /**
   * The link to the terms, shown above their box: the page renders it (a slot), so that its words
   * and address cost the island's script nothing.
   */
  readonly termsLink?: ReactNode;
}

/** The fields a re-rendered form fills in again. */
interface SubmittedAccount {
  readonly name?: string | undefined;
  readonly last_name?: string | undefined;
  readonly email?: string | undefined;
}

const fields = [
  { name: 'name', id: 'sign-up-name' },
  { name: 'last_name', id: 'sign-up-last-name' },
  { name: 'email', id: 'sign-up-email' },
  { name: 'password', id: 'sign-up-password' },
  { name: 'terms_of_service', id: 'sign-up-terms' },
] as const;

/**
 * Creates an account: first and last name, email, password and the terms; the member is signed in
 * at once and offered two-step verification next.
 */
export default function SignUpForm({
  xsrfToken,
  companySlug,
  submitted = {},
  termsLink,
}: SignUpFormProps) {
  const form = useFormAction(actions.auth.signUp, {
    fallbackMessage: signInFallbackMessage,
    fields,
  });
  const termsError = form.fieldError('terms_of_service');

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      {companySlug && <input type="hidden" name="company_slug" value={companySlug} />}
      <TextInput
        id="sign-up-name"
        label="First name"
        name="name"
        required
        autoComplete="given-name"
        defaultValue={submitted.name}
        error={form.fieldError('name')}
      />
      <TextInput
        id="sign-up-last-name"
        label="Last name"
        name="last_name"
        required
        autoComplete="family-name"
        defaultValue={submitted.last_name}
        error={form.fieldError('last_name')}
      />
      <TextInput
        id="sign-up-email"
        label="Email address"
        name="email"
        type="email"
        required
        autoComplete="email"
        spellCheck={false}
        defaultValue={submitted.email}
        error={form.fieldError('email')}
      />
      <TextInput
        id="sign-up-password"
        label="Password"
        name="password"
        type="password"
        required
        autoComplete="new-password"
        hint={newPasswordHint}
        error={form.fieldError('password')}
      />
      <div className={styles['choice']}>
        {termsLink}
        <Chip
          variant="checkbox"
          id="sign-up-terms"
          name="terms_of_service"
          value="accepted"
          required
          title="I accept the terms of service"
          description="The rules for using Member Concierge and how we look after your details."
          error={termsError !== undefined}
          aria-describedby={termsError ? 'sign-up-terms-error' : undefined}
        />
        {termsError && (
          <p id="sign-up-terms-error" className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {termsError}
          </p>
        )}
      </div>
      <Button type="submit" loading={form.pending}>
        Create account
      </Button>
    </form>
  );
}
