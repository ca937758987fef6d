import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents, sessions } from '../../api/db/schema/index.ts';
import { MINUTE } from '../../platform/clock.ts';
import { SESSION_IDLE_TIMEOUT_MS } from '../../api/services/sign-in/sessions.ts';
import { jsonRequest, startTestApi, type TestApi, type TestUser } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface ListedSession {
  id: string;
  browser: string;
  system: string | null;
  device_type: string | null;
  user_agent: string | null;
  network: string | null;
  created_at: string;
  last_used_at: string;
  current: boolean;
}

/** Signs in as a browser would, from an address and with a `User-Agent`. */
async function signInFrom(
  member: TestUser,
  from: { address: string; userAgent?: string },
): Promise<string> {
  const headers: Record<string, string> = { 'X-Forwarded-For': from.address };
  if (from.userAgent !== undefined) headers['User-Agent'] = from.userAgent;
  const response = await api.app.request(
    '/api/v1/users/sign_in',
    jsonRequest({ user: { email: member.email, password: member.password } }, headers),
  );
  const token = /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1];
  if (!token) throw new Error(`Sign-in answered ${response.status}`);
  return token;
}

async function listSessions(token: string): Promise<ListedSession[]> {
  const response = await api.call('GET', '/api/v1/users/sessions', { token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: ListedSession[] }).sessions;
}

async function eventsOf(userId: number, kind: 'session_ended' | 'other_sessions_ended') {
  return api.db
    .select()
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), eq(securityEvents.kind, kind)));
}

describe('GET /api/v1/users/sessions', () => {
  it("lists the member's live sessions with browser, system, network and the current one", async () => {
    const member = await api.createUser();
    const laptop = await signInFrom(member, {
      address: '203.0.113.45',
      userAgent: CHROME_ON_LINUX,
    });
    api.clock.advanceBy(MINUTE);
    const phone = await signInFrom(member, {
      address: '2001:db8:1:2::7',
      userAgent: SAFARI_ON_IPHONE,
    });
    const stranger = await api.createUser();
    await signInFrom(stranger, { address: '198.51.100.9', userAgent: CHROME_ON_LINUX });

    api.clock.advanceBy(MINUTE);
    const listed = await listSessions(laptop);

    expect(listed).toHaveLength(2);
    // The caller's request renewed its session: the newest use comes first.
    const [first, second] = listed;
    expect(first).toMatchObject({
      browser: 'Chrome 140',
      system: 'Linux',
      device_type: 'desktop',
      user_agent: CHROME_ON_LINUX,
      network: '203.0.113.0/24',
      current: true,
      last_used_at: api.clock.now().toISOString(),
    });
    expect(second).toMatchObject({
      browser: 'Safari 17.5',
      system: 'iOS',
      device_type: 'mobile',
      network: '2001:db8:1::/48',
      current: false,
    });
    expect(Date.parse(second?.created_at ?? '')).toBeGreaterThan(
      Date.parse(first?.created_at ?? ''),
    );
    // From the phone, the phone is this device.
    const fromPhone = await listSessions(phone);
    expect(fromPhone.map((session) => session.current)).toEqual([true, false]);
    expect(fromPhone.map((session) => session.id).sort()).toEqual(
      listed.map((session) => session.id).sort(),
    );
  });

  it('gives each session an opaque id: not the row number, not the token hash, stable', async () => {
    const member = await api.createUser();
    const token = await signInFrom(member, { address: '203.0.113.1', userAgent: CHROME_ON_LINUX });
    const [listed] = await listSessions(token);
    const [row] = await api.db.select().from(sessions).where(eq(sessions.userId, member.user.id));

    expect(listed?.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(listed?.id).not.toBe(String(row?.id));
    expect(row?.tokenHash).not.toContain(listed?.id);
    expect((await listSessions(token))[0]?.id).toBe(listed?.id);
  });

  it('names an agent it cannot read "Unknown browser", and one that sent none too', async () => {
    const member = await api.createUser();
    const token = await signInFrom(member, { address: '203.0.113.2', userAgent: 'curl/8.5.0' });
    await signInFrom(member, { address: '203.0.113.3' });

    const listed = await listSessions(token);

    expect(listed.map(({ browser, system }) => ({ browser, system }))).toEqual([
      { browser: 'Unknown browser', system: null },
      { browser: 'Unknown browser', system: null },
    ]);
  });

  it('keeps a hostile or overlong agent as text, cut to 512 characters, and names no browser for it', async () => {
    const member = await api.createUser();
    const hostile = `<script>alert(1)</script>${'x'.repeat(600)}`;
    const token = await signInFrom(member, { address: '203.0.113.19', userAgent: hostile });

    const [listed] = await listSessions(token);

    expect(listed?.browser).toBe('Unknown browser');
    expect(listed?.user_agent).toBe(hostile.slice(0, 512));
  });

  it('leaves out ended, idle and expired sessions', async () => {
    const member = await api.createUser();
    const idle = await signInFrom(member, { address: '203.0.113.4' });
    const signedOut = await signInFrom(member, { address: '203.0.113.5' });
    await api.signOut(signedOut);
    api.clock.advanceBy(SESSION_IDLE_TIMEOUT_MS - MINUTE);
    const token = await signInFrom(member, { address: '203.0.113.6' });
    api.clock.advanceBy(2 * MINUTE);

    const listed = await listSessions(token);

    expect(listed).toHaveLength(1);
    expect(listed[0]?.current).toBe(true);
    expect((await api.getCurrentUser(idle)).status).toBe(401);
  });

  it('answers 401 without a live session', async () => {
    expect((await api.call('GET', '/api/v1/users/sessions')).status).toBe(401);
  });
});

describe('DELETE /api/v1/users/sessions/:id', () => {
  it('ends that session: its token answers 401 on its next call, and the event is kept', async () => {
    const member = await api.createUser();
    const caller = await signInFrom(member, { address: '203.0.113.7', userAgent: CHROME_ON_LINUX });
    const other = await signInFrom(member, { address: '203.0.113.8' });
    const target = (await listSessions(caller)).find((session) => !session.current);

    const response = await api.call('DELETE', `/api/v1/users/sessions/${target?.id ?? ''}`, {
      token: caller,
      clientAddress: '192.0.2.10',
    });

    expect(response.status).toBe(204);
    expect((await api.getCurrentUser(other)).status).toBe(401);
    expect((await api.getCurrentUser(caller)).status).toBe(200);
    expect((await listSessions(caller)).map((session) => session.current)).toEqual([true]);
    const events = await eventsOf(member.user.id, 'session_ended');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ network: '192.0.2.0/24' });
  });

  it('answers 404, as for an unknown id, to ending it again', async () => {
    const member = await api.createUser();
    const caller = await signInFrom(member, { address: '203.0.113.9' });
    await signInFrom(member, { address: '203.0.113.10' });
    const target = (await listSessions(caller)).find((session) => !session.current);
    const path = `/api/v1/users/sessions/${target?.id ?? ''}`;
    await api.call('DELETE', path, { token: caller });

    const again = await api.call('DELETE', path, { token: caller });
    const unknown = await api.call('DELETE', '/api/v1/users/sessions/AAAAAAAAAAAAAAAAAAAAAA', {
      token: caller,
    });
    const malformed = await api.call('DELETE', '/api/v1/users/sessions/1', { token: caller });

    for (const response of [again, unknown, malformed]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'That session has already ended.' });
    }
    expect(await eventsOf(member.user.id, 'session_ended')).toHaveLength(1);
  });

  it("answers 404 to another member's session, which stays signed in", async () => {
    const victim = await api.createUser();
    const victimToken = await signInFrom(victim, { address: '203.0.113.11' });
    const [victimSession] = await listSessions(victimToken);
    const attacker = await api.signInToken(await api.createUser());

    const response = await api.call('DELETE', `/api/v1/users/sessions/${victimSession?.id ?? ''}`, {
      token: attacker,
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'That session has already ended.' });
    expect((await api.getCurrentUser(victimToken)).status).toBe(200);
  });

  it("ends the caller's own session as a sign-out would", async () => {
    const member = await api.createUser();
    const caller = await signInFrom(member, { address: '203.0.113.12' });
    const [own] = await listSessions(caller);

    const response = await api.call('DELETE', `/api/v1/users/sessions/${own?.id ?? ''}`, {
      token: caller,
    });

    expect(response.status).toBe(204);
    expect((await api.getCurrentUser(caller)).status).toBe(401);
  });
});

describe('DELETE /api/v1/users/sessions (every other device)', () => {
  it("ends every other session of the member, keeps the caller's and no one else's", async () => {
    const member = await api.createUser();
    const caller = await signInFrom(member, { address: '203.0.113.13' });
    const others = [
      await signInFrom(member, { address: '203.0.113.14' }),
      await signInFrom(member, { address: '203.0.113.15' }),
    ];
    const stranger = await api.signInToken(await api.createUser());

    const response = await api.call('DELETE', '/api/v1/users/sessions', { token: caller });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ended_count: 2 });
    expect((await api.getCurrentUser(caller)).status).toBe(200);
    for (const token of others) expect((await api.getCurrentUser(token)).status).toBe(401);
    expect((await api.getCurrentUser(stranger)).status).toBe(200);
    expect(await listSessions(caller)).toHaveLength(1);
    expect(await eventsOf(member.user.id, 'other_sessions_ended')).toHaveLength(1);
  });

  it('ends nothing and records nothing when there is no other session', async () => {
    const member = await api.createUser();
    const caller = await signInFrom(member, { address: '203.0.113.16' });

    const response = await api.call('DELETE', '/api/v1/users/sessions', { token: caller });

    expect(await response.json()).toEqual({ ended_count: 0 });
    expect(await eventsOf(member.user.id, 'other_sessions_ended')).toHaveLength(0);
  });
});

describe('Devices and MFA', () => {
  it('refuses a session that still awaits the code its company requires', async () => {
    const member = await api.createUser({
      companyName: 'Strict Co',
      companyRequiresMfa: true,
      mfaPhone: '+15555550123',
    });
    const awaiting = await signInFrom(member, { address: '203.0.113.17' });
    await signInFrom(member, { address: '203.0.113.18' });

    const listed = await api.call('GET', '/api/v1/users/sessions', { token: awaiting });
    const ended = await api.call('DELETE', '/api/v1/users/sessions', { token: awaiting });

    for (const response of [listed, ended]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'MFA authentication required' });
    }
  });
});
