/** The kinds of chip. */
export type ChipVariant = 'button' | 'link' | 'external-link' | 'radio' | 'checkbox';

/** What the user did to a chip: pressed it (`click`) or changed its form control (`change`). */
export type ChipInteraction = 'click' | 'change';

/**
 * Whether a chip is selected after an interaction: a button chip toggles on click, a radio chip
 * becomes selected on change, a checkbox chip toggles on change. Links are never selected by
 * interaction, and a disabled chip never changes.
 */
export function nextChipSelected(
  variant: ChipVariant,
  selected: boolean,
  interaction: ChipInteraction,
  disabled = false,
): boolean {
  if (disabled) return selected;
  switch (variant) {
    case 'button':
      return interaction === 'click' ? !selected : selected;
    case 'radio':
      return interaction === 'change' ? true : selected;
    case 'checkbox':
      return interaction === 'change' ? !selected : selected;
    case 'link':
    case 'external-link':
      return selected;
  }
}
