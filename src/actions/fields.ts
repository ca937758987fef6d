import { z } from 'astro/zod';
import { passwordMaxLength } from '../lib/password-rules';

export { passwordMaxLength };

/**
 * A text field of a form. Astro hands an empty field to the schema as `null`;
 * this reads it as the empty string, so the field's own "Enter your …"
 * message applies instead of a type error nobody can act on.
 */
export function formText<T extends z.ZodType<unknown, string>>(schema: T) {
  return z.preprocess((value) => value ?? '', schema);
}

/** An email address field, with the GOV.UK wording for each way it can be wrong. */
export const emailField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter your email address')
    .max(254, 'Email address must be 254 characters or fewer')
    .pipe(z.email('Enter an email address in the correct format, like name@example.com')),
);

/** A token carried in a hidden field, from the address of the page (reset and unlock links). */
export const tokenField = formText(
  z.string().trim().min(1, 'This link is incomplete').max(512, 'This link is not valid'),
);
