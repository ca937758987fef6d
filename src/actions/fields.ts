import { z } from 'astro/zod';

/**
 * A text field of a form. Astro hands an empty field to the schema as `null`;
 * this reads it as the empty string, so the field's own "Enter your …"
 * message applies instead of a type error nobody can act on.
 */
export function formText<T extends z.ZodType<unknown, string>>(schema: T) {
  return z.preprocess((value) => value ?? '', schema);
}
