import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type FocusEvent,
  type InputHTMLAttributes,
} from 'react';
import { Field } from '../Field/Field';
import { fieldIdFor } from '../Field/field-id';
import textInputStyles from '../TextInput/TextInput.module.css';
import styles from './PhoneInput.module.css';
import {
  DEFAULT_SLOT_CHAR,
  applyMaskedEdit,
  caretForSlot,
  describeEdit,
  fitToSlots,
  formatMasked,
  isMaskComplete,
  parseMask,
} from './mask';

/** What a {@link PhoneInput} reports when its value changes. */
interface PhoneInputValue {
  /** As shown without placeholders, e.g. "(555) 123-4567"; this is what the form submits. */
  masked: string;
  /** Only the characters filling the slots, e.g. "5551234567". */
  raw: string;
  /** Whether every required slot is filled. */
  complete: boolean;
}

/** Props of {@link PhoneInput}. */
interface PhoneInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'id' | 'name' | 'required' | 'value' | 'defaultValue' | 'inputMode' | 'onChange'
> {
  label: string;
  name: string;
  /** Required: `9` digit, `a` letter, `*` letter or digit, `?` the rest optional, e.g. "(999) 999-9999". */
  mask: string;
  /** Shown in unfilled slots while the field has focus; `_` by default. */
  slotChar?: string | undefined;
  required?: boolean | undefined;
  error?: string | undefined;
  hint?: string | undefined;
  /** Defaults to {@link fieldIdFor}(name). */
  id?: string | undefined;
  /** Initial value, raw or formatted. */
  defaultValue?: string | undefined;
  onValueChange?: ((value: PhoneInputValue) => void) | undefined;
}

/**
 * A masked telephone field (tel keyboard). While it has focus it shows the whole mask with the
 * slot character in unfilled slots; otherwise only what was typed, formatted. The form receives
 * the formatted value without placeholders. Without JavaScript it is a plain tel input.
 */
export function PhoneInput({
  label,
  name,
  mask,
  slotChar = DEFAULT_SLOT_CHAR,
  required = false,
  error,
  hint,
  id,
  defaultValue = '',
  onValueChange,
  onFocus,
  onBlur,
  onSelect,
  autoComplete = 'tel',
  className,
  'aria-describedby': describedBy,
  ...native
}: PhoneInputProps) {
  const parsed = useMemo(() => parseMask(mask), [mask]);
  const [raw, setRaw] = useState(() => fitToSlots(parsed, defaultValue, 0, true));
  const [focused, setFocused] = useState(false);
  // Forces a render when an edit is refused, so the refused text is replaced and the caret put back.
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const inputRef = useRef<HTMLInputElement>(null);
  const selectionBeforeEdit = useRef<{ start: number; end: number } | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const shown = !focused && raw === '' ? '' : formatMasked(raw, parsed, slotChar, focused);
  const submitted = formatMasked(raw, parsed, slotChar, false);
  const controlId = id ?? fieldIdFor(name);

  useLayoutEffect(() => {
    const input = inputRef.current;
    const caret = pendingCaret.current;
    pendingCaret.current = null;
    if (input && caret !== null && input.ownerDocument.activeElement === input) {
      input.setSelectionRange(caret, caret);
    }
  });

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return undefined;
    // The input event does not say what the edit replaced; the selection just before it does.
    const onBeforeInput = () => {
      selectionBeforeEdit.current = {
        start: input.selectionStart ?? input.value.length,
        end: input.selectionEnd ?? input.value.length,
      };
    };
    input.addEventListener('beforeinput', onBeforeInput);
    return () => {
      input.removeEventListener('beforeinput', onBeforeInput);
    };
  }, []);

  useEffect(() => {
    // Whatever was typed before the island hydrated is kept, and fitted to the mask.
    const typedEarly = inputRef.current?.value ?? '';
    if (typedEarly !== '' && typedEarly !== shown) {
      setRaw(fitToSlots(parsed, typedEarly, 0, true));
    }
    // Only on mount: later differences are edits, handled by onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return undefined;
    // While focused the field shows placeholders; the form must never submit them.
    const onFormData = (event: FormDataEvent) => {
      event.formData.set(name, submitted);
    };
    form.addEventListener('formdata', onFormData);
    return () => {
      form.removeEventListener('formdata', onFormData);
    };
  }, [name, submitted]);

  const commit = (nextRaw: string, caret: number) => {
    pendingCaret.current = caret;
    if (nextRaw === raw) {
      rerender();
      return;
    }
    setRaw(nextRaw);
    onValueChange?.({
      masked: formatMasked(nextRaw, parsed, slotChar, false),
      raw: nextRaw,
      complete: isMaskComplete(nextRaw, parsed),
    });
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const edit = describeEdit(
      shown,
      input.value,
      selectionBeforeEdit.current,
      input.selectionStart ?? input.value.length,
    );
    selectionBeforeEdit.current = null;
    const result = applyMaskedEdit(parsed, raw, edit);
    commit(result.raw, result.caret);
  };

  const handleFocus = (event: FocusEvent<HTMLInputElement>) => {
    setFocused(true);
    pendingCaret.current = caretForSlot(parsed, raw.length);
    onFocus?.(event);
  };

  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    setFocused(false);
    onBlur?.(event);
  };

  return (
    <Field
      id={controlId}
      label={label}
      required={required}
      hint={hint}
      error={error}
      describedBy={describedBy}
    >
      {(control) => (
        <input
          {...native}
          {...control}
          ref={inputRef}
          type="tel"
          inputMode="tel"
          autoComplete={autoComplete}
          name={name}
          required={required}
          value={shown}
          className={[textInputStyles.control, styles.phone, className].filter(Boolean).join(' ')}
          data-invalid={error ? '' : undefined}
          data-complete={isMaskComplete(raw, parsed) ? '' : undefined}
          onChange={handleChange}
          onFocus={handleFocus}
          onBlur={handleBlur}
          onSelect={(event) => {
            // A click in the placeholders puts the caret at the next slot to fill, not past it.
            const input = event.currentTarget;
            const nextSlot = caretForSlot(parsed, raw.length);
            if (
              focused &&
              input.selectionStart === input.selectionEnd &&
              (input.selectionStart ?? 0) > nextSlot
            ) {
              input.setSelectionRange(nextSlot, nextSlot);
            }
            onSelect?.(event);
          }}
        />
      )}
    </Field>
  );
}
