import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRequestContext, withRequestId } from '../../platform/logger.ts';
import { MAX_BATCH_READS } from '../../api/routes/batch.ts';
import { HOUR } from '../../platform/clock.ts';
import { startTestApi, storeRequest, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

interface BatchAnswer {
  responses: { status: number; body: unknown }[];
}

const read = (path: string) => ({ method: 'GET', path });

async function batch(token: string | undefined, paths: string[], mfaToken?: string) {
  return api.call('POST', '/api/v1/batch', {
    token,
    mfaToken,
    body: { requests: paths.map(read) },
  });
}

async function newMember(options: Parameters<TestApi['createUser']>[0] = {}) {
  const account = await api.createUser(options);
  return { id: account.user.id, token: await api.signInToken(account) };
}

/** Runs a call as one request of the web server would, and counts the statements it sent. */
async function countingStatements(call: () => Promise<Response>) {
  return withRequestId(`statements-${Math.random()}`, async () => {
    const response = await call();
    const body = (await response.json()) as unknown;
    return {
      status: response.status,
      body,
      statements: currentRequestContext()?.databaseStatements,
    };
  });
}

describe('POST /api/v1/batch', () => {
  it('answers each read as the call alone would, in the order asked', async () => {
    const member = await newMember();
    await storeRequest(api, member.id, { title: 'Book a table' });

    const response = await batch(member.token, ['/api/v1/users/current', '/api/v1/dashboard']);

    expect(response.status).toBe(200);
    const { responses } = (await response.json()) as BatchAnswer;
    const alone = await Promise.all(
      ['/api/v1/users/current', '/api/v1/dashboard'].map(async (path) => {
        const answer = await api.call('GET', path, { token: member.token });
        return { status: answer.status, body: (await answer.json()) as unknown };
      }),
    );
    expect(responses).toEqual(alone);
    expect(responses[0]?.body).toMatchObject({ request_count: 1 });
  });

  it('checks the session once, however many reads it carries', async () => {
    const member = await newMember();
    const paths = ['/api/v1/users/current', '/api/v1/request_categories'];

    const together = await countingStatements(() => batch(member.token, paths));
    const apart = await countingStatements(async () => {
      await api.call('GET', paths[0] ?? '', { token: member.token });
      return api.call('GET', paths[1] ?? '', { token: member.token });
    });

    expect(together.status).toBe(200);
    // The two calls apart check the session twice; together, once.
    expect(apart.statements).toBe((together.statements ?? 0) + 1);
  });

  it('keeps each read its own status: another member’s request is not found', async () => {
    const owner = await newMember();
    const stranger = await newMember();
    const requestId = await storeRequest(api, owner.id);

    const response = await batch(stranger.token, [
      '/api/v1/users/current',
      `/api/v1/requests/${requestId}`,
    ]);

    const { responses } = (await response.json()) as BatchAnswer;
    expect(responses.map(({ status }) => status)).toEqual([200, 404]);
    expect(responses[1]?.body).toEqual({ error: 'Not found.' });
  });

  it('refuses a visitor without a live session, as any call would', async () => {
    expect((await batch(undefined, ['/api/v1/users/current'])).status).toBe(401);
    const member = await newMember();
    api.clock.advanceBy(25 * HOUR);
    const expired = await batch(member.token, ['/api/v1/users/current']);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      error: 'Your session has expired. Please sign in again.',
    });
  });

  it('refuses a session still awaiting its code, even for reads that would take one alone', async () => {
    const member = await newMember({ mfaPhone: '+15555550123' });

    const response = await batch(member.token, ['/api/v1/mfa']);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'MFA authentication required' });
    // Alone, the step's own call answers: the batch adds no way around the code.
    expect((await api.call('GET', '/api/v1/mfa', { token: member.token })).status).toBe(200);
  });

  it.each([
    ['a path outside the API', '/healthz'],
    ['a path that leaves the API by its dots', '/api/v1/../../healthz'],
    ['a path that leaves the API by its backslashes', '/api/v1/..\\..\\healthz'],
    ['a path that leaves the API by encoded dots', '/api/v1/%2e%2e/%2E%2E/healthz'],
    ['another host', '//attacker.example/api/v1/users/current'],
    ['the batch itself', '/api/v1/batch'],
    ['the batch itself, with a slash', '/api/v1/batch/'],
  ])('refuses %s, naming the read', async (_case, path) => {
    const member = await newMember();

    const response = await batch(member.token, ['/api/v1/users/current', path]);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'requests.1.path must be a path of the API (/api/v1/…), not the batch.',
      field: 'requests.1.path',
    });
  });

  it('takes reads only: a change cannot ride along', async () => {
    const member = await newMember();

    const response = await api.call('POST', '/api/v1/batch', {
      token: member.token,
      body: { requests: [{ method: 'DELETE', path: '/api/v1/users/sessions' }] },
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'requests.0.method must be one of: GET.',
      field: 'requests',
    });
    const sessions = await api.call('GET', '/api/v1/users/sessions', { token: member.token });
    expect(sessions.status).toBe(200);
  });

  it(`takes at most ${MAX_BATCH_READS} reads, and at least one`, async () => {
    const member = await newMember();
    const tooMany = Array.from({ length: MAX_BATCH_READS + 1 }, () => '/api/v1/users/current');

    const over = await batch(member.token, tooMany);
    const none = await batch(member.token, []);

    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ field: 'requests' });
    expect(none.status).toBe(400);
    expect((await batch(member.token, tooMany.slice(1))).status).toBe(200);
  });
});
