import { useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Icon } from '../Icon/Icon';
import { checkShape, externalShape } from '../Icon/shapes';
import { Ripple } from '../Ripple/Ripple';
import styles from './Chip.module.css';
import { nextChipSelected, type ChipInteraction, type ChipVariant } from './chip-state';

export type { ChipVariant } from './chip-state';

interface ChipCommonProps {
  /** Clamped to two lines on button and link chips; whole on radio and checkbox chips. */
  title: string;
  /**
   * Required; clamped to two lines on button and link chips, whole on radio and checkbox chips,
   * whose description is the control's hint.
   */
  description: string;
  /** The only image is the kit's `default` illustration, in a 5rem tall container. */
  image?: 'default' | undefined;
  /** Controlled selection. Leave it out to let the chip keep its own. */
  selected?: boolean | undefined;
  /** Initial selection of an uncontrolled chip. */
  defaultSelected?: boolean | undefined;
  disabled?: boolean | undefined;
  /** Marks the chip as in error (with `aria-invalid` on radio and checkbox chips). */
  error?: boolean | undefined;
  /** Called with the new selection when an interaction changes it (see `nextChipSelected`). */
  onSelectedChange?: ((selected: boolean) => void) | undefined;
  /** Ids of further descriptions, for example an error message beside a group of chips. */
  'aria-describedby'?: string | undefined;
  className?: string | undefined;
}

/** A chip that toggles when pressed. */
interface ButtonChipProps extends ChipCommonProps {
  variant?: 'button' | undefined;
}

/** A chip that navigates; `external-link` opens a new tab and says so. */
interface LinkChipProps extends ChipCommonProps {
  variant: 'link' | 'external-link';
  href: string;
}

/** A chip wrapping a native radio button or checkbox, submitted with its form. */
interface InputChipProps extends ChipCommonProps {
  variant: 'radio' | 'checkbox';
  /** The native control's id, for an error summary to link to. */
  id?: string | undefined;
  name: string;
  value: string;
  required?: boolean | undefined;
}

/** Props of {@link Chip}, by variant. */
type ChipProps = ButtonChipProps | LinkChipProps | InputChipProps;

function DefaultIllustration() {
  return (
    <svg viewBox="0 0 80 64" aria-hidden="true" focusable="false" className={styles.illustration}>
      <ellipse className={styles.mascotShadow} cx="40" cy="58" rx="22" ry="4" />
      <path
        className={styles.mascotBody}
        d="M18 40c0-14 10-26 22-26s22 12 22 26c0 9-9 14-22 14S18 49 18 40Z"
      />
      <path
        className={styles.mascotShade}
        d="M24 44c4 6 10 8 16 8s12-2 16-8c-4 3-9 4-16 4s-12-1-16-4Z"
      />
      <circle className={styles.mascotInk} cx="32" cy="32" r="3" />
      <circle className={styles.mascotInk} cx="48" cy="32" r="3" />
      <path className={styles.mascotSmile} d="M34 40q6 5 12 0" />
      <circle className={styles.mascotAccent} cx="58" cy="16" r="6" />
    </svg>
  );
}

/**
 * A selectable card: button, link, external link, radio or checkbox, with a title, a description
 * and optionally the default image. State is exposed as `data-selected`, `data-disabled`,
 * `data-invalid`. A radio or checkbox chip is a `<label>` whose native input lies, transparent,
 * over the whole card; its look follows the input's `:checked` and `:disabled`.
 */
export function Chip(props: ChipProps) {
  const {
    title,
    description,
    image,
    selected,
    defaultSelected = false,
    disabled = false,
    error = false,
    onSelectedChange,
    className,
  } = props;
  const variant: ChipVariant = props.variant ?? 'button';
  const inputRef = useRef<HTMLInputElement>(null);
  const [ownSelected, setOwnSelected] = useState(defaultSelected);
  const controlled = selected !== undefined;
  const isSelected = controlled ? selected : ownSelected;

  const interact = (interaction: ChipInteraction) => {
    const next = nextChipSelected(variant, isSelected, interaction, disabled);
    if (next === isSelected) return;
    if (!controlled) setOwnSelected(next);
    onSelectedChange?.(next);
  };

  const groupName = props.variant === 'radio' ? props.name : undefined;
  useEffect(() => {
    // The browser unchecks the other radios of a group without a change event on them; an
    // uncontrolled radio chip watches its group so that its data-selected does not go stale.
    const input = inputRef.current;
    if (controlled || groupName === undefined || !input) return undefined;
    const onGroupChange = (event: Event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement) || target === input) return;
      if (target.type !== 'radio' || target.name !== groupName || target.form !== input.form)
        return;
      setOwnSelected(input.checked);
    };
    document.addEventListener('change', onGroupChange);
    return () => {
      document.removeEventListener('change', onGroupChange);
    };
  }, [controlled, groupName]);

  // Named by its whole visible text (title, description), as WCAG 2.5.3 asks of a control named
  // by its content: speech users say what they see.
  const describedBy = props['aria-describedby'];
  const chipClass = [styles.chip, className].filter(Boolean).join(' ');
  const state = {
    'data-variant': variant,
    'data-selected': isSelected ? '' : undefined,
    'data-disabled': disabled ? '' : undefined,
    'data-invalid': error ? '' : undefined,
  };

  const content: ReactNode = (
    <>
      {image === 'default' ? (
        <span className={styles.image}>
          <DefaultIllustration />
        </span>
      ) : null}
      <span className={styles.text}>
        <span className={styles.title}>{title}</span>
        {/* Keeps the words apart in the accessible name wherever layout does not. */}{' '}
        <span className={styles.description}>{description}</span>
      </span>
      {variant === 'external-link' ? (
        <>
          <Icon path={externalShape} className={styles.mark} />{' '}
          <span className="visually-hidden">(opens in a new tab)</span>
        </>
      ) : null}
      {/* An input chip's mark is always there for CSS to show from the input's own state. */}
      {variant === 'radio' || variant === 'checkbox' || (variant === 'button' && isSelected) ? (
        <Icon path={checkShape} className={styles.mark} />
      ) : null}
    </>
  );

  if (props.variant === 'link' || props.variant === 'external-link') {
    const external = props.variant === 'external-link';
    if (disabled) {
      return (
        <a
          role="link"
          aria-disabled="true"
          aria-describedby={describedBy}
          className={chipClass}
          {...state}
        >
          {content}
        </a>
      );
    }
    return (
      <a
        href={props.href}
        aria-describedby={describedBy}
        className={chipClass}
        {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        {...state}
      >
        {content}
        <Ripple />
      </a>
    );
  }

  if (props.variant === 'radio' || props.variant === 'checkbox') {
    const onChange = (event: ChangeEvent<HTMLInputElement>) => {
      if (!controlled) {
        // The native control is the truth for an uncontrolled chip; mirror it.
        setOwnSelected(event.target.checked);
        onSelectedChange?.(event.target.checked);
        return;
      }
      interact('change');
    };
    return (
      <label className={chipClass} {...state}>
        <input
          ref={inputRef}
          id={props.id}
          className={styles.input}
          type={props.variant}
          name={props.name}
          value={props.value}
          required={props.required}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          {...(controlled ? { checked: selected } : { defaultChecked: defaultSelected })}
          onChange={onChange}
        />
        {content}
      </label>
    );
  }

  return (
    <button
      type="button"
      className={chipClass}
      aria-pressed={isSelected}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={() => {
        interact('click');
      }}
      {...state}
    >
      {content}
      <Ripple disabled={disabled} />
    </button>
  );
}
