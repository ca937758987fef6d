import { actions } from '../island-actions';
import { helpTopics } from '../../lib/help-topics';
import { profileFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { Chip } from '../../ui/Chip/Chip';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

export interface InterestsFormProps {
  readonly xsrfToken: string;
  /** The topics the member chose before, shown chosen. */
  readonly chosen: readonly string[];
  /** Where "Back" goes. */
  readonly backHref: string;
}

const fields = [{ name: 'help_topics', id: 'topic-home_and_moving' }] as const;

/** About-you (docs/PRODUCT.md §7.2): what the member would like help with, as checkbox chips. */
export default function InterestsForm({ xsrfToken, chosen, backHref }: InterestsFormProps) {
  const form = useFormAction(actions.profile.saveInterests, {
    fallbackMessage: profileFallbackMessage,
    fields,
  });

  return (
    <form className={styles['form']} action={form.formAction} noValidate onSubmit={form.onSubmit}>
      <ErrorSummary errors={form.summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <fieldset className={styles['choices']}>
        <legend className="visually-hidden">Topics</legend>
        {helpTopics.map((topic) => (
          <Chip
            key={topic.id}
            variant="checkbox"
            id={`topic-${topic.id}`}
            name="help_topics"
            value={topic.id}
            title={topic.title}
            description={topic.description}
            defaultSelected={chosen.includes(topic.id)}
          />
        ))}
      </fieldset>
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending}>
          Next
        </Button>
        <a href={backHref}>Back</a>
      </div>
    </form>
  );
}
