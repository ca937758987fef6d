import { PASSWORD_MIN_LENGTH } from '../../contract/limits.ts';

/** The hint under every field that sets a new password. */
export const newPasswordHint = `At least ${PASSWORD_MIN_LENGTH} characters. A phrase of a few words is easy to remember and hard to guess.`;
