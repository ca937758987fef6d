import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../ui/Button/Button';
import { ErrorSummary, type ErrorSummaryItem } from '../../../ui/ErrorSummary/ErrorSummary';
import { PhoneInput } from '../../../ui/PhoneInput/PhoneInput';
import { TextInput } from '../../../ui/TextInput/TextInput';
import styles from './Gallery.module.css';

/** Every text input type and state, phone masks, and a form whose errors fill an ErrorSummary. */
export default function FieldsDemo() {
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [submitted, setSubmitted] = useState('');

  const errorFor = (fieldId: string) => errors.find((error) => error.fieldId === fieldId)?.message;

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    const found: ErrorSummaryItem[] = [];
    if (!text('kit_email').includes('@')) {
      found.push({ fieldId: 'field-kit_email', message: 'Enter an email address' });
    }
    if (text('kit_mobile').replace(/\D/g, '').length < 10) {
      found.push({ fieldId: 'field-kit_mobile', message: 'Enter a 10 digit mobile number' });
    }
    setErrors(found);
    setSubmitted(
      found.length === 0 ? `Submitted ${text('kit_email')} and ${text('kit_mobile')}` : '',
    );
  };

  return (
    <div className={styles.stack}>
      <h3 className={styles.subheading}>Form with an error summary</h3>
      <form className={styles.form} noValidate onSubmit={onSubmit} aria-label="Contact details">
        <ErrorSummary errors={errors} headingLevel={3} />
        <TextInput
          label="Email"
          name="kit_email"
          type="email"
          autoComplete="email"
          required
          error={errorFor('field-kit_email')}
        />
        <PhoneInput
          label="Mobile number"
          name="kit_mobile"
          mask="(999) 999-9999"
          hint="We text a code to this number"
          required
          error={errorFor('field-kit_mobile')}
        />
        <div className={styles.row}>
          <Button type="submit">Continue</Button>
        </div>
        <output className={styles.output} aria-live="polite">
          {submitted}
        </output>
      </form>

      <h3 className={styles.subheading}>Types</h3>
      <div className={styles.grid}>
        <TextInput label="Text" name="kit_text" required />
        <TextInput label="Email address" name="kit_email_type" type="email" required />
        <TextInput label="Password" name="kit_password" type="password" required />
        <TextInput label="Search" name="kit_search" type="search" required />
        <TextInput label="Telephone" name="kit_tel" type="tel" required />
        <TextInput label="Website" name="kit_url" type="url" required />
        <TextInput label="Date of birth" name="kit_date" type="date" required />
        <TextInput label="Number of pets" name="kit_number" type="number" required />
      </div>
      <TextInput label="Details" name="kit_textarea" type="textarea" required />

      <h3 className={styles.subheading}>States</h3>
      <div className={styles.grid}>
        <TextInput label="Middle name" name="kit_optional" />
        <TextInput label="Company code" name="kit_hint" hint="Ask your employer for it" required />
        <TextInput
          label="Last name"
          name="kit_error"
          required
          defaultValue="x"
          error="Last name must be at least 2 characters"
        />
        <TextInput
          label="Account number"
          name="kit_disabled"
          required
          disabled
          defaultValue="12345"
        />
      </div>

      <h3 className={styles.subheading}>Phone masks</h3>
      <div className={styles.grid}>
        <PhoneInput label="Home phone" name="kit_home_phone" mask="(999) 999-9999" />
        <PhoneInput
          label="Work phone"
          name="kit_work_phone"
          mask="(999) 999-9999? x99999"
          hint="Extension optional"
        />
        <PhoneInput label="Reference" name="kit_reference" mask="aa-****" slotChar="#" required />
      </div>
    </div>
  );
}
