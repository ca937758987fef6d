import { z } from 'zod';

/** The answer of the calls that only report what happened, in a sentence for people. */
export const noticeSchema = z.object({ message: z.string().min(1).max(500) }).partial();
