// @module-tag database
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../../api/db/schema/index.ts';
import { HOUR } from '../../platform/clock.ts';
import { createUnattachedFileSweeper } from '../../api/services/jobs/unattached-file-sweeper.ts';
import {
  putUpload,
  requestDirectUpload,
  sha256Base64,
  startTestApi,
  type TestApi,
  type TestUser,
} from './support.ts';

/**
 * The storage quota (docs/SECURITY.md): a member's files, attached or not, uploaded or only asked
 * for, add up to 500 MB at most, and the address of a file that would take them past it is
 * refused. Large files are declared, never sent: a file takes its declared size from the moment
 * its address is given, which is what lets these tests fill the quota without writing 500 MB.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const QUOTA_BYTES = 500 * 1024 * 1024;
const LARGEST_FILE_BYTES = 26_214_400;
const refusal = {
  error:
    'There is no room for this file: your files may take up at most 500 MB in all. Files not attached to a request are removed after an hour.',
  field: 'blob.byte_size',
};

function askForAddress(token: string, byteSize: number): Promise<Response> {
  return api.call('POST', '/api/v1/direct_uploads', {
    token,
    body: {
      blob: {
        filename: 'scan.pdf',
        content_type: 'application/pdf',
        byte_size: byteSize,
        checksum: sha256Base64(`scan of ${byteSize} bytes`),
      },
    },
  });
}

/** Asks for addresses of files adding up to `bytes`, none uploaded; resolves to their ids. */
async function askForFilesOf(token: string, bytes: number): Promise<string[]> {
  const ids: string[] = [];
  for (let left = bytes; left > 0; left -= LARGEST_FILE_BYTES) {
    const response = await askForAddress(token, Math.min(left, LARGEST_FILE_BYTES));
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

async function filesOf(member: TestUser) {
  return api.db.select().from(blobs).where(eq(blobs.userId, member.user.id));
}

async function newMember(): Promise<{ member: TestUser; token: string }> {
  const member = await api.createUser();
  return { member, token: await api.signInToken(member) };
}

describe('the storage quota of a member', () => {
  it('refuses, with 400 naming blob.byte_size, the address of a file that would take their files past 500 MB, and records nothing', async () => {
    const { member, token } = await newMember();
    // Attached: declared, marked uploaded as storage would, then attached to a request each.
    const attached = await askForFilesOf(token, 4 * LARGEST_FILE_BYTES);
    await api.db
      .update(blobs)
      .set({ uploadedAt: api.clock.now() })
      .where(eq(blobs.userId, member.user.id));
    for (const id of attached) {
      const created = await api.call('POST', '/api/v1/requests', {
        token,
        body: { request: { category_id: 'travel', title: 'Scans', attachment_ids: [id] } },
      });
      expect(created.status).toBe(201);
    }
    // Uploaded and not attached.
    const content = 'Moving inventory: sofa, table, 25 boxes.';
    const uploaded = await requestDirectUpload(api, token, { content });
    expect((await putUpload(api, uploaded, content)).status).toBe(204);
    // Only asked for, up to 10 bytes short of the quota.
    const used = 4 * LARGEST_FILE_BYTES + uploaded.byte_size;
    await askForFilesOf(token, QUOTA_BYTES - used - 10);
    const before = await filesOf(member);

    const response = await askForAddress(token, 11);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal);
    expect(await filesOf(member)).toEqual(before);
    // Exactly up to the quota is still allowed.
    expect((await askForAddress(token, 10)).status).toBe(201);
  });

  it('counts the files only asked for, never uploaded nor attached', async () => {
    const { token } = await newMember();
    await askForFilesOf(token, QUOTA_BYTES);

    const response = await askForAddress(token, 1);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal);
  });

  it('is each member’s own: another member’s files take none of it', async () => {
    const full = await newMember();
    await askForFilesOf(full.token, QUOTA_BYTES);
    const other = await newMember();

    expect((await askForAddress(other.token, LARGEST_FILE_BYTES)).status).toBe(201);
    expect((await askForAddress(full.token, 1)).status).toBe(400);
  });

  it('gives two asks at once no more than the room left for one', async () => {
    const { member, token } = await newMember();
    await askForFilesOf(token, QUOTA_BYTES - LARGEST_FILE_BYTES);

    const statuses = await Promise.all([
      askForAddress(token, LARGEST_FILE_BYTES).then((response) => response.status),
      askForAddress(token, LARGEST_FILE_BYTES).then((response) => response.status),
    ]);

    expect(statuses.toSorted()).toEqual([201, 400]);
    const total = (await filesOf(member)).reduce((sum, file) => sum + file.byteSize, 0);
    expect(total).toBe(QUOTA_BYTES);
  });

  // Moves the clock: last.
  it('gets back the room of files nobody attached once they are removed, an hour after they were asked for', async () => {
    const { member, token } = await newMember();
    await askForFilesOf(token, QUOTA_BYTES);
    const sweeper = createUnattachedFileSweeper({
      db: api.db,
      clock: api.clock,
      storage: api.storage,
    });

    api.clock.advanceBy(HOUR - 1);
    await sweeper.removeDue();
    expect(await filesOf(member)).toHaveLength(20);
    api.clock.advanceBy(1);
    await sweeper.removeDue();
    expect(await filesOf(member)).toEqual([]);

    // The first session has been idle past its 30 minutes.
    const again = await api.signInToken(member);
    expect((await askForAddress(again, LARGEST_FILE_BYTES)).status).toBe(201);
  });
});
