import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../api/db/schema/index.ts';
import { startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

describe('DELETE /api/v1/users/sign_out', () => {
  it('answers 204 with no body', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    const response = await api.signOut(token);

    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('answers 204 again for a session already signed out', async () => {
    const account = await api.createUser();
    const token = await api.signInToken(account);

    expect((await api.signOut(token)).status).toBe(204);
    expect((await api.signOut(token)).status).toBe(204);
  });

  it('answers 204 without a token or with an unknown one', async () => {
    expect((await api.signOut()).status).toBe(204);
    expect((await api.signOut('not-a-token')).status).toBe(204);
    expect((await api.signOut('B'.repeat(43))).status).toBe(204);
  });

  it('ends only the session it was called with', async () => {
    const account = await api.createUser();
    const signedOut = await api.signInToken(account);
    const otherDevice = await api.signInToken(account);

    await api.signOut(signedOut);

    expect((await api.getCurrentUser(signedOut)).status).toBe(401);
    expect((await api.getCurrentUser(otherDevice)).status).toBe(200);
  });

  it('signs out an enrolled user whose session still awaits MFA verification', async () => {
    const account = await api.createUser({ mfaPhone: '+15555550123' });
    const token = await api.signInToken(account);

    expect((await api.signOut(token)).status).toBe(204);
    expect(await (await api.getCurrentUser(token)).json()).toEqual({
      error: 'Your session has expired. Please sign in again.',
    });
  });

  it("forgets signed-out sessions at the member's next sign-in", async () => {
    const account = await api.createUser();
    await api.signOut(await api.signInToken(account));

    await api.signInToken(account);

    const rows = await api.db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.userId, account.user.id));
    expect(rows).toEqual([{ revokedAt: null }]);
  });
});
