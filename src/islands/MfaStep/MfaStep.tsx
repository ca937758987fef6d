import type { ReactNode } from 'react';
import { actions } from '../island-actions';
import {
  mfaEnrollFallbackMessage,
  mfaSendCodeFallbackMessage,
  mfaVerifyFallbackMessage,
} from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { PhoneInput } from '../../ui/PhoneInput/PhoneInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';
import { TextInput } from '../../ui/TextInput/TextInput';
import { PhoneHint } from './PhoneHint';
import { useResendCountdown } from './use-resend-countdown';

interface MfaStepProps {
  readonly xsrfToken: string;
  /** `enroll` a phone first, or `verify` with the enrolled one. */
  readonly mode: 'enroll' | 'verify';
  /** The last digits of the phone the codes go to, when the server knows it. */
  readonly phoneLastDigits?: string | undefined;
  /** Whether "Skip for now" is offered (not where the company requires the step). */
  readonly canSkip: boolean;
  /**
   * Where the step is taken: at sign-in (MfaEnrollment), or from the Account area, where the number
   * given replaces the enrolled phone, if any, once its code is entered, and the code leads back to
   * AccountSecurity.
   */
  readonly place: 'sign-in' | 'account';
  /** The words of the enrollment form, which differ by place; they come with the page's HTML. */
  readonly words: MfaStepWords;
  /** What the page adds to the code's form: "Remember this device", rendered on the server. */
  readonly children?: ReactNode;
}

interface MfaStepWords {
  readonly phoneLabel: string;
  readonly phoneHint: string;
  /** The button that texts a code to the number given. */
  readonly sendCode: string;
  /** Under the code field: where the code is and how long it works. */
  readonly codeHint: string;
  /** The button that checks the code. */
  readonly checkCode: string;
}

const phoneFields = [{ name: 'phone', id: 'mfa-phone' }] as const;
const codeFields = [{ name: 'code', id: 'mfa-code' }] as const;
const noFields = [] as const;

/**
 * Two-step verification by text message: enrollment asks for a mobile number and texts a code to
 * it; verification texts a code to the enrolled phone; the code is entered as a one-time code. Each
 * step is a plain form, so it works without JavaScript.
 */
export default function MfaStep({
  xsrfToken,
  mode,
  phoneLastDigits,
  canSkip,
  place,
  words,
  children,
}: MfaStepProps) {
  const enroll = useFormAction(actions.mfa.enroll, {
    fallbackMessage: mfaEnrollFallbackMessage,
    fields: phoneFields,
  });
  const request = useFormAction(actions.mfa.requestCode, {
    fallbackMessage: mfaSendCodeFallbackMessage,
    fields: noFields,
  });
  const verify = useFormAction(
    place === 'account' ? actions.account.confirmPhone : actions.mfa.verify,
    {
      fallbackMessage: mfaVerifyFallbackMessage,
      fields: codeFields,
    },
  );
  const skip = useFormAction(actions.mfa.skip, {
    fallbackMessage: mfaEnrollFallbackMessage,
    fields: noFields,
  });

  const sent = request.data ?? enroll.data;
  const digits = sent?.phoneLastDigits ?? phoneLastDigits;
  const enteringCode = sent !== undefined || verify.summary.length > 0;
  const secondsLeft = useResendCountdown(sent?.resendAfterSeconds ?? 0, sent);
  const errors = [...enroll.summary, ...request.summary, ...verify.summary, ...skip.summary];

  const hidden = <input type="hidden" name={xsrfFieldName} value={xsrfToken} />;

  return (
    <div className={styles['form']}>
      <ErrorSummary errors={errors} />

      {!enteringCode && mode === 'enroll' && (
        <form
          className={styles['form']}
          action={enroll.formAction}
          noValidate
          onSubmit={enroll.onSubmit}
        >
          {hidden}
          <PhoneInput
            id="mfa-phone"
            label={words.phoneLabel}
            name="phone"
            mask="(999) 999-9999"
            required
            hint={words.phoneHint}
            error={enroll.fieldError('phone')}
          />
          <Button type="submit" loading={enroll.pending}>
            {words.sendCode}
          </Button>
        </form>
      )}

      {!enteringCode && mode === 'verify' && (
        <form
          className={styles['form']}
          action={request.formAction}
          noValidate
          onSubmit={request.onSubmit}
        >
          {hidden}
          {digits && <PhoneHint digits={digits} lead="We will text a code to" />}
          <Button type="submit" loading={request.pending}>
            {words.sendCode}
          </Button>
        </form>
      )}

      {enteringCode && (
        <>
          <form
            className={styles['form']}
            action={verify.formAction}
            noValidate
            onSubmit={verify.onSubmit}
          >
            {hidden}
            {digits && <PhoneHint digits={digits} lead="We have sent a code to" />}
            <TextInput
              id="mfa-code"
              label="Code"
              name="code"
              type="number"
              required
              autoComplete="one-time-code"
              hint={words.codeHint}
              error={verify.fieldError('code')}
            />
            {children}
            <Button type="submit" loading={verify.pending}>
              {words.checkCode}
            </Button>
          </form>
          <form action={request.formAction} noValidate onSubmit={request.onSubmit}>
            {hidden}
            <Button
              type="submit"
              variant="secondary"
              loading={request.pending}
              disabled={secondsLeft > 0}
            >
              {secondsLeft > 0 ? `Send a new code in ${secondsLeft} s` : 'Send a new code'}
            </Button>
          </form>
        </>
      )}

      {canSkip && (
        <form action={skip.formAction} noValidate onSubmit={skip.onSubmit}>
          {hidden}
          <Button type="submit" variant="tertiary" loading={skip.pending}>
            Skip for now
          </Button>
        </form>
      )}
    </div>
  );
}
