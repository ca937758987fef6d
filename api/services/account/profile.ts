import { and, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { placeholderFor, preparedStatements } from '../../db/prepared.ts';
import {
  accountTokens,
  companyConnections,
  companyIdentities,
  requests,
  users,
  type User,
} from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { pendingEmailQuery } from './email-address.ts';
import { hasEnrolledMfa } from '../member-factors.ts';
import {
  formatUsPhoneNumber,
  normaliseUsPhoneNumber,
  phoneLastDigits,
} from '../factors/phone-numbers.ts';
import type { ContactMethod, HelpTopic } from '../../../contract/profile-choices.ts';

export {
  CONTACT_METHODS,
  HELP_TOPICS,
  type ContactMethod,
  type HelpTopic,
} from '../../../contract/profile-choices.ts';

/** Contact methods that need a contact phone. */
const PHONE_CONTACT_METHODS: readonly ContactMethod[] = ['phone', 'text'];

/** The member as GET and PATCH /users/current answer it. */
interface CurrentUserAnswer {
  external_id: string;
  full_name: string;
  /** The first and last names `full_name` is made of, as the profile changes them. */
  name: string;
  last_name: string;
  email: string;
  company: { name: string } | null;
  request_count: number;
  help_topics: string[];
  /** The contact phone, as people read it: `(555) 123-4567`. */
  phone_number: string | null;
  preferred_contact_method: ContactMethod | null;
  mfa_enrolled: boolean;
  /** The last two digits of the enrolled MFA phone. */
  phone_last_digits: string | null;
  /** Whether the member proved they read `email`. */
  email_verified: boolean;
  /** The address a change waits on (its link not followed yet), if any. */
  pending_email: string | null;
  /** Whether the member's company signs them in with its own provider (docs/PRODUCT.md §15). */
  company_sign_in: boolean;
}

/**
 * The member as GET /users/current answers, in one statement: the session check brought the user
 * and the company's name; this counts the requests, finds an address change waiting and whether
 * the company's own provider signs the member in.
 */
export async function describeCurrentUser(
  database: Database,
  user: User,
  companyName: string | null,
  now: Date,
): Promise<CurrentUserAnswer> {
  const [facts] = await currentUserFacts(database, user.companyId !== null).execute({
    userId: user.id,
    companyId: user.companyId,
    now,
  });
  return {
    external_id: user.externalId,
    full_name: `${user.name} ${user.lastName}`,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    company: companyName === null ? null : { name: companyName },
    request_count: facts?.requestCount ?? 0,
    help_topics: user.helpTopics,
    phone_number: user.contactPhone === null ? null : formatUsPhoneNumber(user.contactPhone),
    preferred_contact_method: user.preferredContactMethod,
    mfa_enrolled: hasEnrolledMfa(user),
    phone_last_digits: user.mfaPhone === null ? null : phoneLastDigits(user.mfaPhone),
    email_verified: user.emailVerifiedAt !== null,
    pending_email: facts?.pendingEmail ?? null,
    company_sign_in: facts?.companySignIn ?? false,
  };
}

/**
 * The statement of describeCurrentUser, one for a member of a company and one for a member of none,
 * whom no company's provider signs in.
 */
const currentUserFacts = preparedStatements(
  'current_user_facts',
  (ofCompany: boolean) => (ofCompany ? 'company' : 'none'),
  (database, ofCompany, name) =>
    database
      .select({
        requestCount: count(),
        pendingEmail: sql<string | null>`(${pendingEmailQuery(
          database,
          sql.placeholder('userId'),
          placeholderFor('now', accountTokens.expiresAt),
        )})`,
        companySignIn: sql<boolean>`exists (${companySignInQuery(database, ofCompany)})`,
      })
      .from(requests)
      .where(eq(requests.userId, sql.placeholder('userId')))
      .prepare(name),
);

/** The member's link to their company's provider, while the company's sign-in is on. */
function companySignInQuery(database: Database, ofCompany: boolean) {
  return database
    .select({ one: sql`1` })
    .from(companyIdentities)
    .innerJoin(companyConnections, eq(companyConnections.id, companyIdentities.connectionId))
    .where(
      and(
        eq(companyIdentities.userId, sql.placeholder('userId')),
        eq(companyConnections.enabled, true),
        ofCompany ? eq(companyConnections.companyId, sql.placeholder('companyId')) : sql`false`,
      ),
    );
}

/** The profile fields PATCH /users/current may change; an absent one is left as it is. */
interface ProfileChanges {
  /** First and last name, already trimmed and checked (routes/users/current-user.ts). */
  name?: string | undefined;
  lastName?: string | undefined;
  helpTopics?: readonly HelpTopic[] | undefined;
  /** The contact phone as typed; null or empty removes it. */
  phoneNumber?: string | null | undefined;
  preferredContactMethod?: ContactMethod | null | undefined;
}

type ProfileUpdateResult =
  | { updated: true; user: User }
  | { updated: false; reason: 'invalid_phone_number' | 'phone_number_required' };

/**
 * Saves the member's names, profile answers and contact information, all or nothing, in one
 * transaction. The contact phone must be a 10-digit US number
 * (stored in E.164); a preferred contact method of phone or text needs one, in the profile as it
 * is after the change. Under the user's row lock, so two concurrent changes cannot together leave
 * "text me" without a number.
 */
export async function updateProfile(
  database: Database,
  clock: Clock,
  userId: number,
  changes: ProfileChanges,
): Promise<ProfileUpdateResult> {
  let contactPhone: string | null | undefined;
  if (changes.phoneNumber === undefined) contactPhone = undefined;
  else if (changes.phoneNumber === null || changes.phoneNumber.trim() === '') contactPhone = null;
  else {
    contactPhone = normaliseUsPhoneNumber(changes.phoneNumber);
    if (contactPhone === null) return { updated: false, reason: 'invalid_phone_number' };
  }
  const helpTopics =
    changes.helpTopics === undefined ? undefined : [...new Set(changes.helpTopics)];

  return database.transaction(async (transaction): Promise<ProfileUpdateResult> => {
    const [current] = await transaction
      .select()
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!current) throw new Error(`User ${userId} is gone.`);
    const phoneAfter = contactPhone === undefined ? current.contactPhone : contactPhone;
    const methodAfter =
      changes.preferredContactMethod === undefined
        ? current.preferredContactMethod
        : changes.preferredContactMethod;
    if (methodAfter !== null && PHONE_CONTACT_METHODS.includes(methodAfter) && !phoneAfter) {
      return { updated: false, reason: 'phone_number_required' };
    }
    const [user] = await transaction
      .update(users)
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.lastName === undefined ? {} : { lastName: changes.lastName }),
        ...(helpTopics === undefined ? {} : { helpTopics }),
        ...(contactPhone === undefined ? {} : { contactPhone }),
        ...(changes.preferredContactMethod === undefined
          ? {}
          : { preferredContactMethod: changes.preferredContactMethod }),
        updatedAt: clock.now(),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new Error(`User ${userId} is gone.`);
    return { updated: true, user };
  });
}
