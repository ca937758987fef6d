import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies, users, type User } from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { emailVerificationLink } from './email-address.ts';
import { checkPasswordPolicy, hashPassword } from '../sign-in/passwords.ts';

interface SignUpInput {
  /** Already trimmed and lower-cased. */
  email: string;
  password: string;
  name: string;
  lastName: string;
  /** The company's public handle from the sign-up link; null or empty for no company. */
  companySlug: string | null;
  /** The site's origin, for the verification link. */
  publicOrigin: string;
}

type SignUpResult =
  | { created: true; user: User }
  | {
      created: false;
      reason: 'unknown_company' | 'email_taken' | 'password_policy';
      /** For policy failures: the rule's own sentence (see checkPasswordPolicy). */
      message?: string;
    };

async function companyIdOf(database: Database, slug: string): Promise<number | null> {
  const [company] = await database
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.slug, slug))
    .limit(1);
  return company?.id ?? null;
}

/**
 * POST /users/sign_up: creates a member, under the company of `companySlug` when one is given.
 * Checked in this order: the company exists, the email has no account yet (sign-up cannot help
 * revealing that; its rate limit bounds it), the password policy (which refuses the email and the
 * name too). The argon2id hash is computed before the transaction, which inserts the user only if
 * the email is still free, so of two concurrent sign-ups with one address exactly one succeeds. The
 * same transaction mails the link that proves the address.
 */
export async function signUp(
  database: Database,
  clock: Clock,
  input: SignUpInput,
): Promise<SignUpResult> {
  const slug = input.companySlug?.trim().toLowerCase() || null;
  if (slug !== null && (await companyIdOf(database, slug)) === null) {
    return { created: false, reason: 'unknown_company' };
  }
  const [existing] = await database
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1);
  if (existing) return { created: false, reason: 'email_taken' };
  const verdict = await checkPasswordPolicy(input.password, input);
  if (!verdict.acceptable) {
    return { created: false, reason: 'password_policy', message: verdict.message };
  }

  const passwordHash = await hashPassword(input.password);

  return database.transaction(async (transaction): Promise<SignUpResult> => {
    const now = clock.now();
    const companyId = slug === null ? null : await companyIdOf(transaction, slug);
    if (slug !== null && companyId === null) return { created: false, reason: 'unknown_company' };
    const [user] = await transaction
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        name: input.name,
        lastName: input.lastName,
        companyId,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) return { created: false, reason: 'email_taken' };
    await emailVerificationLink(transaction, user, now, input.publicOrigin);
    return { created: true, user };
  });
}
