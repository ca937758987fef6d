/**
 * US phone numbers, the only ones the product texts or stores (MFA and the profile's contact
 * phone). People type them in many ways; the API stores them in E.164 (`+15551234567`).
 */

/** What a person may type around the digits: spaces, dots, dashes and parentheses. */
const PUNCTUATION = /[\s().-]/g;
/** Ten digits, optionally after the country code 1 (with or without `+`). */
const US_NUMBER = /^(?:\+?1)?(\d{10})$/;
/** North American area codes never start with 0 or 1. */
const AREA_CODE = /^[2-9]/;

/**
 * The E.164 form (`+1XXXXXXXXXX`) of a 10-digit US number written as `(555) 123-4567`,
 * `555-123-4567`, `5551234567`, `+15551234567` or `1 555 123 4567`; null for anything else.
 */
export function normaliseUsPhoneNumber(input: string): string | null {
  const digits = US_NUMBER.exec(input.trim().replace(PUNCTUATION, ''))?.[1];
  if (!digits || !AREA_CODE.test(digits)) return null;
  return `+1${digits}`;
}

/** `+15551234567` as people read it: `(555) 123-4567`. Other values are returned unchanged. */
export function formatUsPhoneNumber(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (!match) return e164;
  return `(${match[1] ?? ''}) ${match[2] ?? ''}-${match[3] ?? ''}`;
}

/** The last two digits, which the API shows instead of the whole number (`ending 67`). */
export function phoneLastDigits(e164: string): string {
  return e164.slice(-2);
}

/** The sentence for a number that {@link normaliseUsPhoneNumber} refuses. */
export const INVALID_US_PHONE_NUMBER = 'Enter a 10-digit US phone number, e.g. (555) 123-4567.';
