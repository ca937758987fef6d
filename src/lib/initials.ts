/**
 * The first letter of the first and of the last word of the full name, upper case. One word gives
 * one letter; no name gives an empty string.
 */
export function initialsOf(fullName: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/u).filter(Boolean);
  const first = words.at(0);
  const last = words.length > 1 ? words.at(-1) : undefined;
  return [first, last]
    .map((word) => (word ? (Array.from(word)[0] ?? '') : ''))
    .join('')
    .toLocaleUpperCase('en-US');
}
