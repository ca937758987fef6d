import { z } from 'zod';

/** The longest first or last name a member may have (sign-up and profile alike). */
const NAME_MAX_LENGTH = 100;

/**
 * A member's first or last name, as sign-up and `PATCH /users/current` take it: trimmed, not
 * empty, at most {@link NAME_MAX_LENGTH} characters. One rule, so the two refuse in the same words.
 */
export const memberName = () => z.string().trim().min(1).max(NAME_MAX_LENGTH);
