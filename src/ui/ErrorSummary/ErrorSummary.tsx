import { useEffect, useId, useRef, type MouseEvent } from 'react';
import styles from './ErrorSummary.module.css';

/** One problem listed by an {@link ErrorSummary}. */
export interface ErrorSummaryItem {
  /** Id of the field at fault; the message then links to it. */
  fieldId?: string | undefined;
  message: string;
}

/** Props of {@link ErrorSummary}. */
interface ErrorSummaryProps {
  /** "There is a problem" by default. */
  title?: string | undefined;
  errors: readonly ErrorSummaryItem[];
  /** Level of the title heading; 2 by default. */
  headingLevel?: 2 | 3 | undefined;
}

function focusField(event: MouseEvent<HTMLAnchorElement>, fieldId: string) {
  const field = document.getElementById(fieldId);
  if (!field) return;
  // Focusing (not just jumping to the fragment) puts the cursor in the field, and keeps the URL clean.
  event.preventDefault();
  field.scrollIntoView({ block: 'center' });
  field.focus();
}

/**
 * The GOV.UK error summary: a list of the form's problems at its top, each linking to its field.
 * Renders nothing when there are no errors; takes focus whenever its errors change, so that
 * keyboard and screen-reader users land on it after a failed submit.
 */
export function ErrorSummary({
  title = 'There is a problem',
  errors,
  headingLevel = 2,
}: ErrorSummaryProps) {
  const summaryRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  const errorsKey = errors
    .map((error) => `${error.fieldId ?? ''}\u0000${error.message}`)
    .join('\n');

  useEffect(() => {
    if (errorsKey) summaryRef.current?.focus();
  }, [errorsKey]);

  if (errors.length === 0) return null;

  return (
    <div
      ref={summaryRef}
      className={styles.summary}
      role="alert"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <Heading id={titleId} className={styles.title}>
        {title}
      </Heading>
      <ul className={styles.list}>
        {errors.map((error) => {
          const { fieldId } = error;
          return (
            <li key={`${fieldId ?? ''}:${error.message}`}>
              {fieldId ? (
                <a
                  href={`#${fieldId}`}
                  onClick={(event) => {
                    focusField(event, fieldId);
                  }}
                >
                  {error.message}
                </a>
              ) : (
                error.message
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
