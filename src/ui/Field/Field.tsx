import type { ReactNode } from 'react';
import styles from './Field.module.css';

/** The accessibility attributes a {@link Field} hands to the control it frames. */
interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** Props of {@link Field}. */
interface FieldProps {
  /** The control's id; the label points at it. */
  id: string;
  label: string;
  /** Fields that are not required show "(optional)" after their label. */
  required?: boolean | undefined;
  hint?: string | undefined;
  /** Shown under the control, marks it invalid and is announced. */
  error?: string | undefined;
  /** Ids of further descriptions, kept ahead of the hint and the error. */
  describedBy?: string | undefined;
  /** Renders the control with the props that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * The frame shared by the kit's text fields: label with the "(optional)" suffix, hint, the
 * control, and an error under it in a polite live region (always present, so that an error
 * appearing later is announced).
 */
export function Field({
  id,
  label,
  required = false,
  hint,
  error,
  describedBy,
  children,
}: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedByIds = [describedBy, hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={styles.field} data-invalid={error ? '' : undefined}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {required ? null : <span className={styles.optional}> (optional)</span>}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {children({
        id,
        'aria-describedby': describedByIds,
        'aria-invalid': error ? true : undefined,
      })}
      <div className={styles.errorRegion} aria-live="polite">
        {error ? (
          <p id={errorId} className={styles.error}>
            <span className="visually-hidden">Error: </span>
            <span>{error}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}
