import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users, type User } from '../../db/schema/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { memberFactsColumns, type MemberFacts } from '../sign-in/member-facts.ts';
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
 * The member as GET /users/current answers: the user and the company's name and the member's
 * facts, all of which the session check brought (api/http/authentication.ts).
 */
export function describeMember(
  user: User,
  companyName: string | null,
  facts: MemberFacts,
): CurrentUserAnswer {
  return {
    external_id: user.externalId,
    full_name: `${user.name} ${user.lastName}`,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    company: companyName === null ? null : { name: companyName },
    request_count: facts.requestCount,
    help_topics: user.helpTopics,
    phone_number: user.contactPhone === null ? null : formatUsPhoneNumber(user.contactPhone),
    preferred_contact_method: user.preferredContactMethod,
    mfa_enrolled: hasEnrolledMfa(user),
    phone_last_digits: user.mfaPhone === null ? null : phoneLastDigits(user.mfaPhone),
    email_verified: user.emailVerifiedAt !== null,
    pending_email: facts.pendingEmail,
    company_sign_in: facts.companySignIn,
  };
}

/** The member as a call that changed it answers: its facts read again, after the change. */
export async function describeCurrentUser(
  database: Database,
  user: User,
  companyName: string | null,
  now: Date,
): Promise<CurrentUserAnswer> {
  const [facts] = await database
    .select(memberFactsColumns(database, user.id, now))
    .from(users)
    .where(eq(users.id, user.id));
  if (!facts) throw new Error(`Member ${user.id} is gone.`);
  return describeMember(user, companyName, facts);
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
