/**
 * The id a field gets when its caller gives none: derived from its name, so that an
 * ErrorSummary link (`#field-email`) can point at it without the caller knowing more.
 * Pass an explicit `id` when the same name appears twice on one page.
 */
export function fieldIdFor(name: string): string {
  return `field-${name.replace(/[^\w-]/g, '-')}`;
}
