import { actions } from '../island-actions';
import { contactMethods } from '../../lib/help-topics';
import { profileFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ChipChoices } from '../ChipChoices';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { PhoneInput } from '../../ui/PhoneInput/PhoneInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface ContactFormProps {
  readonly xsrfToken: string;
  /** What the member saved before, shown filled in. */
  readonly phoneNumber: string | null;
  readonly preferredContactMethod: string | null;
  readonly backHref: string;
}

const fields = [
  { name: 'phone_number', id: 'contact-phone' },
  { name: 'preferred_contact_method', id: 'contact-method-email' },
] as const;

/** Contact info: a phone number and how to reach the member. */
export default function ContactForm({
  xsrfToken,
  phoneNumber,
  preferredContactMethod,
  backHref,
}: ContactFormProps) {
  const form = useFormAction(actions.profile.saveContact, {
    fallbackMessage: profileFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <ChipChoices
        variant="radio"
        legend="How should we reach you?"
        name="preferred_contact_method"
        idPrefix="contact-method-"
        choices={contactMethods}
        chosen={(id) => preferredContactMethod === id}
        error={form.fieldError('preferred_contact_method')}
      />
      <PhoneInput
        id="contact-phone"
        label="Phone number"
        name="phone_number"
        mask="(999) 999-9999"
        hint="Needed for calls and text messages."
        defaultValue={phoneNumber ?? ''}
        error={form.fieldError('phone_number')}
      />
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending}>
          Finish
        </Button>
        <a href={backHref}>Back</a>
      </div>
    </form>
  );
}
