import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blobs,
  outboxMessages,
  requests,
  securityEvents,
  sessions,
  storageDeletions,
  users,
} from '../../api/db/schema/index.ts';
import { deleteAccount as deleteAccountWith } from '../../api/services/account/account-deletion.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { removeQueuedStorageFiles } from '../../api/services/files/files.ts';
import { recordSecurityEvent } from '../../api/services/audit/security-events.ts';
import type { FileStorage } from '../../api/services/files/storage/file-storage.ts';
import {
  randomClientAddress,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  uploadFile,
  type TestApi,
  type TestUser,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function signedIn(account?: TestUser) {
  const member = account ?? (await api.createUser());
  return { member, token: await api.signInToken(member) };
}

function deleteAccount(token: string, currentPassword: string) {
  return api.call('DELETE', '/api/v1/users', {
    token,
    body: { user: { current_password: currentPassword } },
    clientAddress: randomClientAddress(),
  });
}

async function requestWithFile(token: string, filename = 'inventory.txt') {
  const fileId = await uploadFile(api, token, { filename });
  const response = await api.call('POST', '/api/v1/requests', {
    token,
    body: { request: { category_id: 'travel', title: 'Flights', attachment_ids: [fileId] } },
  });
  expect(response.status).toBe(201);
  const [blob] = await api.db.select().from(blobs).where(eq(blobs.id, fileId));
  if (!blob) throw new Error('The file was not recorded.');
  return blob;
}

describe('GET /api/v1/users/current/export (the member takes their data)', () => {
  it('answers one JSON file with the profile, requests, timelines, files and activity', async () => {
    const { member, token } = await signedIn();
    await requestWithFile(token, 'passport scan.pdf');
    await uploadFile(api, token, { filename: 'left over.txt' });
    await recordSecurityEvent(api.db, {
      userId: member.user.id,
      kind: 'signed_in',
      origin: { network: '198.51.100.0/24', userAgent: 'Firefox/140.0' },
      at: api.clock.now(),
    });

    const response = await api.call('GET', '/api/v1/users/current/export', { token });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="member-concierge-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const data = (await response.json()) as Record<string, unknown>;
    expect(data.profile).toMatchObject({
      email: member.email,
      name: member.user.name,
      last_name: member.user.lastName,
    });
    expect(data.requests).toEqual([
      expect.objectContaining({
        title: 'Flights',
        category: 'Travel',
        timeline: [
          expect.objectContaining({
            kind: 'created',
            files: [expect.objectContaining({ filename: 'passport scan.pdf', byte_size: 40 })],
          }),
        ],
      }),
    ]);
    expect(data.unattached_files).toEqual([expect.objectContaining({ filename: 'left over.txt' })]);
    expect(data.sessions).toHaveLength(1);
    expect(data.security_events).toContainEqual(
      expect.objectContaining({ kind: 'signed_in', network: '198.51.100.0/24' }),
    );
  });

  it('holds no secret and no other member’s data', async () => {
    const { token } = await signedIn();
    const other = await signedIn();
    await requestWithFile(other.token, 'someone else.txt');

    const text = await (await api.call('GET', '/api/v1/users/current/export', { token })).text();

    expect(text).not.toMatch(/argon2|password|token_hash|code_hash/i);
    expect(text).not.toContain('someone else.txt');
    expect(text).not.toContain(other.member.email);
  });

  it('needs a session', async () => {
    const response = await api.call('GET', '/api/v1/users/current/export');
    expect(response.status).toBe(401);
  });
});

describe('DELETE /api/v1/users (the member deletes the account)', () => {
  it('removes the member, their requests, files, sessions and events, and says goodbye', async () => {
    const { member, token } = await signedIn();
    const blob = await requestWithFile(token);
    const userId = member.user.id;

    const response = await deleteAccount(token, member.password);

    expect(response.status).toBe(204);
    expect(await api.db.select().from(users).where(eq(users.id, userId))).toEqual([]);
    expect(await api.db.select().from(requests).where(eq(requests.userId, userId))).toEqual([]);
    expect(await api.db.select().from(blobs).where(eq(blobs.userId, userId))).toEqual([]);
    expect(await api.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    expect(
      await api.db.select().from(securityEvents).where(eq(securityEvents.userId, userId)),
    ).toEqual([]);
    expect(await api.storage.stat(blob.key)).toBeUndefined();
    expect(
      await api.db.select().from(storageDeletions).where(eq(storageDeletions.key, blob.key)),
    ).toEqual([]);
    const mail = await api.mailTo(member.email);
    expect(mail.map((message) => message.subject)).toEqual([
      'Your Member Concierge account was deleted',
    ]);
    expect((await api.getCurrentUser(token)).status).toBe(401);
  });

  it('refuses a wrong current password under its field, and deletes nothing', async () => {
    const { member, token } = await signedIn();

    const response = await deleteAccount(token, 'not my password at all');

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Your current password is not right.',
      field: 'user.current_password',
    });
    expect(await api.db.select().from(users).where(eq(users.id, member.user.id))).toHaveLength(1);
    expect((await api.getCurrentUser(token)).status).toBe(200);
  });

  it('counts wrong current passwords toward the lockout, which ends the session', async () => {
    const { member, token } = await signedIn();
    for (let attempt = 1; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      expect((await deleteAccount(token, `wrong ${attempt}`)).status).toBe(422);
    }

    expect((await deleteAccount(token, 'wrong again')).status).toBe(422);

    expect((await api.getCurrentUser(token)).status).toBe(401);
    const fresh = await api.signIn(member);
    expect(fresh.status).toBe(401);
    expect(await api.db.select().from(users).where(eq(users.id, member.user.id))).toHaveLength(1);
  });

  it('leaves every other member as they were', async () => {
    const { member, token } = await signedIn();
    const other = await signedIn();
    const otherBlob = await requestWithFile(other.token);

    expect((await deleteAccount(token, member.password)).status).toBe(204);

    expect((await api.getCurrentUser(other.token)).status).toBe(200);
    expect(await api.storage.stat(otherBlob.key)).toEqual({ byteSize: otherBlob.byteSize });
  });

  it('keeps a file storage failed to drop queued, and the sweeper drops it later', async () => {
    const failing: FileStorage = Object.create(api.storage) as FileStorage;
    failing.delete = () => Promise.reject(new Error('storage is down'));
    const { member, token } = await signedIn();
    const blob = await requestWithFile(token);
    const queued = async () =>
      api.db.select().from(storageDeletions).where(eq(storageDeletions.key, blob.key));

    const [user] = await api.db.select().from(users).where(eq(users.id, member.user.id));
    if (!user) throw new Error('The member was not found.');
    expect(
      await deleteAccountWith(api.db, api.clock, failing, user, {
        currentPassword: member.password,
        publicOrigin: TEST_PUBLIC_ORIGIN,
        origin: { network: null, userAgent: null },
      }),
    ).toEqual({ deleted: true });
    expect(await queued()).toHaveLength(1);
    expect(await api.storage.stat(blob.key)).toEqual({ byteSize: blob.byteSize });

    await removeQueuedStorageFiles(api.db, api.storage);
    expect(await queued()).toEqual([]);
    expect(await api.storage.stat(blob.key)).toBeUndefined();
  });

  it('forgets the mail it sent the member, but keeps the goodbye until it is delivered', async () => {
    const { member, token } = await signedIn();
    await api.requestPasswordReset(member.email);

    expect((await deleteAccount(token, member.password)).status).toBe(204);

    const kept = await api.db
      .select({ subject: outboxMessages.subject })
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, member.email));
    expect(kept).toEqual([{ subject: 'Your Member Concierge account was deleted' }]);
  });

  it('needs a session and its current password', async () => {
    expect((await api.call('DELETE', '/api/v1/users', { body: { user: {} } })).status).toBe(401);
    const { token } = await signedIn();
    const response = await api.call('DELETE', '/api/v1/users', { token, body: { user: {} } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: 'user.current_password' });
  });
});
