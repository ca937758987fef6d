import { z } from 'astro/zod';
import { unsavableCharacterMessage } from '../lib/messages';
import { PASSWORD_MAX_LENGTH } from '../../contract/limits.ts';

export { PASSWORD_MAX_LENGTH };

/**
 * Whether the API can store the text as typed: PostgreSQL's text holds no U+0000, and a surrogate
 * without its pair has no UTF-8 form, so the API refuses either with its own sentence naming its
 * own field path. Checking here keeps that sentence off the page.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * A text field of a form. Astro hands an empty field to the schema as `null`;
 * this reads it as the empty string, so the field's own "Enter your …"
 * message applies instead of a type error nobody can act on. Text the API could not store is
 * refused first, with `unsavableMessage` (name the field by its label), and the field's own rules
 * then do not run.
 */
export function formText<T extends z.ZodType<unknown, string>>(
  schema: T,
  unsavableMessage: string = unsavableCharacterMessage(),
) {
  return z.preprocess(
    (value) => value ?? '',
    z.string().refine(isStorableText, unsavableMessage).pipe(schema),
  );
}

/** An email address field, with the GOV.UK wording for each way it can be wrong. */
export const emailField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter your email address')
    .max(254, 'Email address must be 254 characters or fewer')
    .pipe(z.email('Enter an email address in the correct format, like name@example.com')),
  unsavableCharacterMessage('Email address'),
);

/** A token carried in a hidden field, from the address of the page (reset and unlock links). */
export const tokenField = formText(
  z.string().trim().min(1, 'This link is incomplete').max(512, 'This link is not valid'),
  'This link is not valid',
);

/** A first name, as sign-up and the Account page's profile take it (the API's own rules). */
export const firstNameField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter your first name')
    .max(100, 'First name must be 100 characters or fewer'),
  unsavableCharacterMessage('First name'),
);

/** A last name, as sign-up and the Account page's profile take it. */
export const lastNameField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter your last name')
    .max(100, 'Last name must be 100 characters or fewer'),
  unsavableCharacterMessage('Last name'),
);

/** The current password, which a signed-in member gives to change what protects the account. */
export const currentPasswordField = formText(
  z
    .string()
    .min(1, 'Enter your current password')
    .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`),
  unsavableCharacterMessage('Current password'),
);

/** A US mobile number, as the API takes it: ten digits, formatting forgiven. */
export const usMobileNumberField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter your mobile phone number')
    .refine(
      (number) => number.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '').length === 10,
      'Enter a US mobile number with its area code, like (555) 123-4567',
    ),
  unsavableCharacterMessage('Mobile phone number'),
);

/** The 6-digit code of a text message. */
export const oneTimeCodeField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter the code we sent you')
    .regex(/^\d{6}$/, 'The code is 6 digits'),
  unsavableCharacterMessage('Code'),
);

/**
 * A recovery code: ten letters and digits, as printed (`abcde-fghij`); spaces, hyphens and capitals
 * are forgiven, as the API forgives them.
 */
export const recoveryCodeField = formText(
  z
    .string()
    .trim()
    .min(1, { message: 'Enter one of your recovery codes', abort: true })
    .refine(
      (code) => /^[a-z2-7]{10}$/.test(code.replace(/[\s-]/g, '').toLowerCase()),
      'A recovery code is 10 letters and numbers, like abcde-23456',
    ),
  unsavableCharacterMessage('Recovery code'),
);

/**
 * "Remember this device for 30 days" at the MFA step: a checkbox, sent only when ticked.
 */
export const rememberDeviceField = z
  .literal('yes')
  .nullish()
  .transform((value) => value === 'yes');

/** What a passkey is called in the member's list: 1 to 60 characters. */
export const passkeyNameField = formText(
  z
    .string()
    .trim()
    .min(1, 'Enter a name for the passkey')
    .max(60, 'The name must be 60 characters or fewer'),
  unsavableCharacterMessage('Name'),
);

/**
 * The browser's answer to a passkey ceremony, as the JSON text of `PublicKeyCredential.toJSON()`;
 * its shape is the API's to check. Bounded, as every field.
 */
export const passkeyCredentialField = z
  .string()
  .max(32_768)
  .transform((text, context): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'The passkey answer is not readable' });
      return z.NEVER;
    }
  });
