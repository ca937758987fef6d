import { and, asc, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  blobs,
  companies,
  rememberedDevices,
  requestCategories,
  requests,
  requestUpdates,
  securityEvents,
  sessions,
  type User,
} from '../../db/schema/index.ts';
import { passkeysOf } from '../factors/passkey-store.ts';
import { countUnusedRecoveryCodes } from '../factors/recovery-code-store.ts';

/** A file as the export lists it: what the member called it and how big it is, not its content. */
interface ExportedFile {
  filename: string;
  content_type: string;
  byte_size: number;
  uploaded_at: string | null;
}

/**
 * GET /users/current/export: everything the product keeps about the member, as one JSON document:
 * the profile, the requests with their timelines and the names and sizes of their files, files not
 * attached to anything, the sessions that are still live, the unexpired remembered devices, the
 * passkeys and the security events. Secrets are never part of it (password hash, token hashes,
 * codes), nor the internal row ids. Read in one repeatable-read transaction, so the parts agree
 * with each other.
 */
export async function exportAccount(database: Database, user: User, now: Date) {
  return database.transaction(
    async (transaction) => {
      const [company] =
        user.companyId === null
          ? []
          : await transaction
              .select({ name: companies.name, slug: companies.slug })
              .from(companies)
              .where(eq(companies.id, user.companyId));
      const memberRequests = await transaction
        .select({
          id: requests.id,
          title: requests.title,
          details: requests.details,
          status: requests.status,
          category: requestCategories.name,
          createdAt: requests.createdAt,
          updatedAt: requests.updatedAt,
        })
        .from(requests)
        .innerJoin(requestCategories, eq(requestCategories.id, requests.categoryId))
        .where(eq(requests.userId, user.id))
        .orderBy(asc(requests.createdAt), asc(requests.id));
      const requestIds = memberRequests.map(({ id }) => id);
      const updates =
        requestIds.length === 0
          ? []
          : await transaction
              .select()
              .from(requestUpdates)
              .where(inArray(requestUpdates.requestId, requestIds))
              .orderBy(asc(requestUpdates.createdAt), asc(requestUpdates.id));
      const files = await transaction
        .select()
        .from(blobs)
        .where(eq(blobs.userId, user.id))
        .orderBy(asc(blobs.createdAt), asc(blobs.id));
      const liveSessions = await transaction
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
        .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
      const devices = await transaction
        .select()
        .from(rememberedDevices)
        .where(and(eq(rememberedDevices.userId, user.id), gt(rememberedDevices.expiresAt, now)))
        .orderBy(desc(rememberedDevices.createdAt), desc(rememberedDevices.id));
      const recoveryCodesLeft = await countUnusedRecoveryCodes(transaction, user.id);
      const memberPasskeys = await passkeysOf(transaction, user.id);
      const events = await transaction
        .select()
        .from(securityEvents)
        .where(eq(securityEvents.userId, user.id))
        .orderBy(desc(securityEvents.occurredAt), desc(securityEvents.id));

      const fileOf = (file: (typeof files)[number]): ExportedFile => ({
        filename: file.filename,
        content_type: file.contentType,
        byte_size: file.byteSize,
        uploaded_at: file.uploadedAt?.toISOString() ?? null,
      });
      return {
        exported_at: now.toISOString(),
        profile: {
          external_id: user.externalId,
          email: user.email,
          email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
          name: user.name,
          last_name: user.lastName,
          company: company ?? null,
          help_topics: user.helpTopics,
          contact_phone: user.contactPhone,
          preferred_contact_method: user.preferredContactMethod,
          two_step_phone: user.mfaPhone,
          // When the app was confirmed; its secret is a credential, never exported.
          authenticator_app_added_at: user.totpConfirmedAt?.toISOString() ?? null,
          // How many, never which: even their hashes are credentials.
          recovery_codes_left: recoveryCodesLeft,
          two_step_offer_declined_at: user.mfaDeclinedAt?.toISOString() ?? null,
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
        },
        requests: memberRequests.map((request) => ({
          id: request.id,
          title: request.title,
          details: request.details,
          status: request.status,
          category: request.category,
          created_at: request.createdAt.toISOString(),
          updated_at: request.updatedAt.toISOString(),
          timeline: updates
            .filter((update) => update.requestId === request.id)
            .map((update) => ({
              kind: update.kind,
              author: update.author,
              body: update.body,
              status: update.status,
              created_at: update.createdAt.toISOString(),
              files: files.filter((file) => file.requestUpdateId === update.id).map(fileOf),
            })),
        })),
        unattached_files: files.filter((file) => file.requestId === null).map(fileOf),
        sessions: liveSessions
          .filter((session) => session.expiresAt.getTime() > now.getTime())
          .map((session) => ({
            started_at: session.createdAt.toISOString(),
            last_used_at: session.lastUsedAt.toISOString(),
            user_agent: session.userAgent,
            network: session.network,
          })),
        // Where the step is skipped, never the token's hash: that stands in for the factor.
        remembered_devices: devices.map((device) => ({
          remembered_at: device.createdAt.toISOString(),
          last_used_at: device.lastUsedAt?.toISOString() ?? null,
          expires_at: device.expiresAt.toISOString(),
          user_agent: device.userAgent,
        })),
        // What the member named and when each was used, never the credential or its key.
        passkeys: memberPasskeys.map((passkey) => ({
          name: passkey.name,
          added_at: passkey.createdAt.toISOString(),
          last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
          backed_up: passkey.backedUp,
        })),
        security_events: events.map((event) => ({
          kind: event.kind,
          occurred_at: event.occurredAt.toISOString(),
          user_agent: event.userAgent,
          network: event.network,
        })),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
