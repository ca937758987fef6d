import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession } from '../../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../../http/context.ts';
import { errorResponse } from '../../http/errors.ts';
import { rateLimitPerUser } from '../../http/rate-limit.ts';
import { memberName } from '../../http/member-name.ts';
import { jsonBody } from '../../http/validation.ts';
import { exportAccount } from '../../services/account/account-export.ts';
import { INVALID_US_PHONE_NUMBER } from '../../services/factors/phone-numbers.ts';
import { CONTACT_METHODS, HELP_TOPICS } from '../../../contract/profile-choices.ts';
import {
  describeCurrentUser,
  describeMember,
  updateProfile,
} from '../../services/account/profile.ts';
import { ACCOUNT_EXPORT_PER_USER } from '../../services/rate-limits.ts';
import { ErrorMessage } from '../../../contract/error-messages.ts';

const profileBody = z.object({
  user: z.object({
    // The rules of sign-up (users/sign-up.ts), refused in the same words.
    name: memberName().optional(),
    last_name: memberName().optional(),
    help_topics: z
      .array(z.enum(HELP_TOPICS))
      .max(HELP_TOPICS.length * 2)
      .optional(),
    phone_number: z.string().max(64).nullable().optional(),
    preferred_contact_method: z.enum(CONTACT_METHODS).nullable().optional(),
  }),
});

/** The signed-in member: GET and PATCH /api/v1/users/current, and its export. */
export function createCurrentUserRoutes(dependencies: ApiDependencies) {
  const { db, clock } = dependencies;

  return new Hono<ApiEnv>()
    .get('/current', requireSession(dependencies), (c) =>
      c.json(describeMember(c.get('user'), c.get('companyName'), c.get('memberFacts'))),
    )
    .get(
      '/current/export',
      requireSession(dependencies),
      rateLimitPerUser(dependencies, ACCOUNT_EXPORT_PER_USER),
      async (c) => {
        const now = clock.now();
        const day = now.toISOString().slice(0, 10);
        c.header('Cache-Control', 'no-store');
        c.header('Content-Disposition', `attachment; filename="member-concierge-data-${day}.json"`);
        return c.json(await exportAccount(db, c.get('user'), now));
      },
    )
    .patch('/current', requireSession(dependencies), jsonBody(profileBody), async (c) => {
      const { user: changes } = c.req.valid('json');
      if (Object.values(changes).every((value) => value === undefined)) {
        return errorResponse(
          c,
          400,
          'user must have name, last_name, help_topics, phone_number or preferred_contact_method.',
          'user',
        );
      }
      const result = await updateProfile(db, clock, c.get('user').id, {
        name: changes.name,
        lastName: changes.last_name,
        helpTopics: changes.help_topics,
        phoneNumber: changes.phone_number,
        preferredContactMethod: changes.preferred_contact_method,
      });
      if (result.updated)
        return c.json(
          await describeCurrentUser(db, result.user, c.get('companyName'), clock.now()),
        );
      const message =
        result.reason === 'invalid_phone_number'
          ? INVALID_US_PHONE_NUMBER
          : ErrorMessage.contactPhoneRequired;
      return errorResponse(c, 422, message, 'user.phone_number');
    });
}
