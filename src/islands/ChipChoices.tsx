import { useId } from 'react';
import { Chip } from '../ui/Chip/Chip';
import styles from './account-form.module.css';

/** One choice of a {@link ChipChoices} group. */
interface ChipChoice {
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

interface ChipChoicesProps {
  /** Checkboxes for "any of these", radios for "one of these". */
  readonly variant: 'checkbox' | 'radio';
  /** The group's question; `legendHidden` keeps it for assistive technology only. */
  readonly legend: string;
  readonly legendHidden?: boolean;
  /** The form field every chip posts its `id` under. */
  readonly name: string;
  /** Each chip's element id is this prefix and the choice's id (the error summary links there). */
  readonly idPrefix: string;
  readonly choices: readonly ChipChoice[];
  /** The choices shown chosen when the form is drawn. */
  readonly chosen: (id: string) => boolean;
  /** The field's error, shown under the legend and named by every chip. */
  readonly error?: string | undefined;
}

/**
 * A group of chips that answers one question (the help topics, the contact method), as GOV.UK's
 * checkboxes and radios: a fieldset whose legend asks, the error under the legend, and every chip
 * described by that error. Not an island of its own: a part the islands' forms share.
 */
export function ChipChoices({
  variant,
  legend,
  legendHidden = false,
  name,
  idPrefix,
  choices,
  chosen,
  error,
}: ChipChoicesProps) {
  const errorId = useId();
  return (
    <fieldset className={styles['choices']}>
      <legend className={legendHidden ? 'visually-hidden' : styles['legend']}>{legend}</legend>
      {error && (
        <p id={errorId} className={styles['error']}>
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      )}
      {choices.map((choice) => (
        <Chip
          key={choice.id}
          variant={variant}
          id={`${idPrefix}${choice.id}`}
          name={name}
          value={choice.id}
          title={choice.title}
          description={choice.description}
          defaultSelected={chosen(choice.id)}
          error={error !== undefined}
          aria-describedby={error ? errorId : undefined}
        />
      ))}
    </fieldset>
  );
}
