import type { InputHTMLAttributes, Ref, TextareaHTMLAttributes } from 'react';
import { Field } from '../Field/Field';
import { fieldIdFor } from '../Field/field-id';
import styles from './TextInput.module.css';

/** The input types the kit allows. */
type TextInputType =
  'date' | 'email' | 'number' | 'password' | 'search' | 'tel' | 'text' | 'textarea' | 'url';

/** Rows of a textarea when none are given (docs/PRODUCT.md §9). */
const DEFAULT_TEXTAREA_ROWS = 3;

/** Props of {@link TextInput}: the native input props plus the kit's own. */
interface TextInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'id' | 'name' | 'required'
> {
  label: string;
  name: string;
  /** `text` by default. `number` is numeric text with a numeric keyboard, not a spin box. */
  type?: TextInputType | undefined;
  /** Fields that are not required show "(optional)" after their label. */
  required?: boolean | undefined;
  /** Shown under the field; marks it invalid and is announced. */
  error?: string | undefined;
  hint?: string | undefined;
  /** Defaults to {@link fieldIdFor}(name). */
  id?: string | undefined;
  /** Textarea rows; 3 by default. */
  rows?: number | undefined;
  ref?: Ref<HTMLInputElement | HTMLTextAreaElement> | undefined;
}

/** A labelled text field, or a textarea, with its hint, "(optional)" suffix and error. */
export function TextInput({
  label,
  name,
  type = 'text',
  required = false,
  error,
  hint,
  id,
  rows = DEFAULT_TEXTAREA_ROWS,
  className,
  ref,
  'aria-describedby': describedBy,
  ...native
}: TextInputProps) {
  const controlId = id ?? fieldIdFor(name);
  const controlClass = [styles.control, className].filter(Boolean).join(' ');

  return (
    <Field
      id={controlId}
      label={label}
      required={required}
      hint={hint}
      error={error}
      describedBy={describedBy}
    >
      {(control) =>
        type === 'textarea' ? (
          <textarea
            {...(native as TextareaHTMLAttributes<HTMLTextAreaElement>)}
            {...control}
            ref={ref as Ref<HTMLTextAreaElement> | undefined}
            name={name}
            rows={rows}
            required={required}
            className={controlClass}
            data-invalid={error ? '' : undefined}
          />
        ) : (
          <input
            {...native}
            {...control}
            ref={ref as Ref<HTMLInputElement> | undefined}
            name={name}
            required={required}
            className={controlClass}
            data-invalid={error ? '' : undefined}
            {...(type === 'number'
              ? { type: 'text', inputMode: 'numeric', pattern: '[0-9]*' }
              : { type })}
          />
        )
      }
    </Field>
  );
}
