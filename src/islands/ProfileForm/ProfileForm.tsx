import { actions } from '../island-actions';
import { contactMethods, helpTopics } from '../../lib/help-topics';
import { profileSaveFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ChipChoices } from '../ChipChoices';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { PhoneInput } from '../../ui/PhoneInput/PhoneInput';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

/** What the form shows filled in: the saved profile, or what a failed post without JavaScript sent. */
export interface ProfileValues {
  readonly name: string;
  readonly last_name: string;
  readonly help_topics: readonly string[];
  readonly phone_number: string;
  readonly preferred_contact_method: string | null;
}

interface ProfileFormProps {
  readonly xsrfToken: string;
  readonly values: ProfileValues;
}

const fields = [
  { name: 'name', id: 'profile-name' },
  { name: 'last_name', id: 'profile-last-name' },
  { name: 'help_topics', id: 'profile-topic-home_and_moving' },
  { name: 'preferred_contact_method', id: 'profile-contact-method-email' },
  { name: 'phone_number', id: 'profile-phone' },
] as const;

/**
 * The Account page's Profile: first and last name with the rules of sign-up, help topics as on
 * About you, and contact as on Contact info, saved together.
 */
export default function ProfileForm({ xsrfToken, values }: ProfileFormProps) {
  const form = useFormAction(actions.profile.saveProfile, {
    fallbackMessage: profileSaveFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <TextInput
        id="profile-name"
        label="First name"
        name="name"
        required
        autoComplete="given-name"
        defaultValue={values.name}
        error={form.fieldError('name')}
      />
      <TextInput
        id="profile-last-name"
        label="Last name"
        name="last_name"
        required
        autoComplete="family-name"
        defaultValue={values.last_name}
        error={form.fieldError('last_name')}
      />
      <ChipChoices
        variant="checkbox"
        legend="What would you like help with?"
        name="help_topics"
        idPrefix="profile-topic-"
        choices={helpTopics}
        chosen={(id) => values.help_topics.includes(id)}
        error={form.fieldError('help_topics')}
      />
      <ChipChoices
        variant="radio"
        legend="How should we reach you?"
        name="preferred_contact_method"
        idPrefix="profile-contact-method-"
        choices={contactMethods}
        chosen={(id) => values.preferred_contact_method === id}
        error={form.fieldError('preferred_contact_method')}
      />
      <PhoneInput
        id="profile-phone"
        label="Phone number"
        name="phone_number"
        mask="(999) 999-9999"
        hint="Needed for calls and text messages."
        defaultValue={values.phone_number}
        error={form.fieldError('phone_number')}
      />
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
