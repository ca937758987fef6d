import { useId } from 'react';
import { actions } from '../island-actions';
import { contactMethods, helpTopics } from '../../lib/help-topics';
import { profileSaveFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { Chip } from '../../ui/Chip/Chip';
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

export interface ProfileFormProps {
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
 * The Account page's Profile (docs/PRODUCT.md §2): first and last name with the rules of sign-up,
 * help topics as on About you, and contact as on Contact info, saved together.
 */
export default function ProfileForm({ xsrfToken, values }: ProfileFormProps) {
  const form = useFormAction(actions.profile.saveProfile, {
    fallbackMessage: profileSaveFallbackMessage,
    fields,
  });
  const methodError = form.fieldError('preferred_contact_method');
  const methodErrorId = useId();
  const topicsError = form.fieldError('help_topics');
  const topicsErrorId = useId();

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
      <fieldset className={styles['choices']}>
        <legend className={styles['legend']}>What would you like help with?</legend>
        {topicsError && (
          <p id={topicsErrorId} className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {topicsError}
          </p>
        )}
        {helpTopics.map((topic) => (
          <Chip
            key={topic.id}
            variant="checkbox"
            id={`profile-topic-${topic.id}`}
            name="help_topics"
            value={topic.id}
            title={topic.title}
            description={topic.description}
            defaultSelected={values.help_topics.includes(topic.id)}
            error={topicsError !== undefined}
            aria-describedby={topicsError ? topicsErrorId : undefined}
          />
        ))}
      </fieldset>
      <fieldset className={styles['choices']}>
        <legend className={styles['legend']}>How should we reach you?</legend>
        {methodError && (
          <p id={methodErrorId} className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {methodError}
          </p>
        )}
        {contactMethods.map((method) => (
          <Chip
            key={method.id}
            variant="radio"
            id={`profile-contact-method-${method.id}`}
            name="preferred_contact_method"
            value={method.id}
            title={method.title}
            description={method.description}
            defaultSelected={values.preferred_contact_method === method.id}
            error={methodError !== undefined}
            aria-describedby={methodError ? methodErrorId : undefined}
          />
        ))}
      </fieldset>
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
