import { actions } from '../island-actions';
import { helpTopics } from '../../lib/help-topics';
import { profileFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ChipChoices } from '../ChipChoices';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface InterestsFormProps {
  readonly xsrfToken: string;
  /** The topics the member chose before, shown chosen. */
  readonly chosen: readonly string[];
  /** Where "Back" goes. */
  readonly backHref: string;
}

const fields = [{ name: 'help_topics', id: 'topic-home_and_moving' }] as const;

/** About-you: what the member would like help with, as checkbox chips. */
export default function InterestsForm({ xsrfToken, chosen, backHref }: InterestsFormProps) {
  const form = useFormAction(actions.profile.saveInterests, {
    fallbackMessage: profileFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <ChipChoices
        variant="checkbox"
        legend="Topics"
        legendHidden
        name="help_topics"
        idPrefix="topic-"
        choices={helpTopics}
        chosen={(id) => chosen.includes(id)}
        error={form.fieldError('help_topics')}
      />
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending}>
          Next
        </Button>
        <a href={backHref}>Back</a>
      </div>
    </form>
  );
}
