/**
 * The lengths a password may have (docs/PRODUCT.md §11); the API also refuses common and
 * easy-to-guess ones, and says why.
 */
export const passwordMinLength = 8;
export const passwordMaxLength = 128;

/** The hint under every field that sets a new password. */
export const newPasswordHint = `At least ${passwordMinLength} characters. A phrase of a few words is easy to remember and hard to guess.`;
