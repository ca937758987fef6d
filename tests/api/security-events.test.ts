// @module-tag database
import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents } from '../../api/db/schema/index.ts';
import { HOUR, MINUTE } from '../../platform/clock.ts';
import { LOCKOUT_THRESHOLD } from '../../api/services/sign-in/lockout.ts';
import { createSecurityEventSweeper } from '../../api/services/jobs/security-event-sweeper.ts';
import {
  NO_ORIGIN,
  recordSecurityEvent,
  SECURITY_EVENT_RETENTION_DAYS,
} from '../../api/services/audit/security-events.ts';
import { codeFromText, jsonRequest, startTestApi, tokenFromLink, type TestApi } from './support.ts';
import { type SecurityEventKind } from '../../contract/security-event-kinds.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const DAY = 24 * HOUR;
const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
/** BROWSER as the API names it, in the Devices page's words. */
const BROWSER_NAMED = { browser: 'Safari 17.4', system: 'macOS' };
const NEW_PASSWORD = 'a brand new passphrase for events';

interface EventsAnswer {
  events: {
    kind: SecurityEventKind;
    occurred_at: string;
    network: string | null;
    user_agent: string | null;
  }[];
  next: string | null;
  previous: string | null;
}

function events(token: string, query = '') {
  return api.call('GET', `/api/v1/users/events${query}`, { token });
}

async function eventsOf(token: string, query = ''): Promise<EventsAnswer> {
  const response = await events(token, query);
  expect(response.status).toBe(200);
  return (await response.json()) as EventsAnswer;
}

async function kindsOf(token: string): Promise<SecurityEventKind[]> {
  return (await eventsOf(token)).events.map((event) => event.kind);
}

/** POST sign_in from a given address and browser. */
function signInFrom(
  credentials: { email: string; password: string },
  clientAddress: string,
  userAgent = BROWSER,
) {
  return api.app.request(
    '/api/v1/users/sign_in',
    jsonRequest(
      { user: credentials },
      { 'X-Forwarded-For': clientAddress, 'User-Agent': userAgent },
    ),
  );
}

function tokenOf(response: Response): string {
  expect(response.status).toBe(200);
  return /^Bearer (.+)$/.exec(response.headers.get('Authorization') ?? '')?.[1] ?? '';
}

async function countAllEvents(): Promise<number> {
  const [row] = await api.db.select({ count: sql<number>`count(*)::integer` }).from(securityEvents);
  return row?.count ?? 0;
}

describe('GET /api/v1/users/events', () => {
  it('lists the sign-ins, a failed one and a sign-out, newest first, with the network and browser', async () => {
    const member = await api.createUser();
    const first = tokenOf(await signInFrom(member, '203.0.113.77'));
    api.clock.advanceBy(MINUTE);
    await api.signOut(first);
    api.clock.advanceBy(MINUTE);
    const wrong = await signInFrom(
      { email: member.email, password: 'not the password' },
      '198.51.100.9',
      'curl/8.5.0',
    );
    expect(wrong.status).toBe(401);
    api.clock.advanceBy(MINUTE);
    const token = tokenOf(await signInFrom(member, '2001:db8:abcd:12::1'));

    const answer = await eventsOf(token);

    const at = (minutesAgo: number) =>
      new Date(api.clock.now().getTime() - minutesAgo * MINUTE).toISOString();
    expect(answer).toEqual({
      events: [
        {
          kind: 'signed_in',
          occurred_at: at(0),
          network: '2001:db8:abcd::/48',
          user_agent: BROWSER,
          ...BROWSER_NAMED,
        },
        {
          kind: 'sign_in_failed',
          occurred_at: at(1),
          network: '198.51.100.0/24',
          user_agent: 'curl/8.5.0',
          browser: 'Unknown browser',
          system: null,
        },
        {
          kind: 'signed_out',
          occurred_at: at(2),
          network: null,
          user_agent: null,
          browser: null,
          system: null,
        },
        {
          kind: 'signed_in',
          occurred_at: at(3),
          network: '203.0.113.0/24',
          user_agent: BROWSER,
          ...BROWSER_NAMED,
        },
      ],
      next: null,
      previous: null,
    });
  });

  it('records nothing for an unknown email, nor for signing out twice or with an unknown token', async () => {
    const before = await countAllEvents();
    const unknown = await api.signIn({
      email: 'nobody-here@example.com',
      password: 'whatever it is',
    });
    expect(unknown.status).toBe(401);
    const member = await api.createUser();
    const token = await api.signInToken(member);
    await api.signOut(token);
    await api.signOut(token);
    await api.signOut('A'.repeat(43));
    expect(await countAllEvents()).toBe(before + 2);
  });

  it('records a failure per wrong password, the lock, and the unlock by link', async () => {
    const member = await api.createUser();
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      await api.signIn({ email: member.email, password: `wrong ${attempt}` });
    }
    const mail = (await api.mailTo(member.email)).at(-1);
    await api.unlock(tokenFromLink(mail?.textBody ?? '', 'unlock'));
    const token = await api.signInToken(member);

    expect(await kindsOf(token)).toEqual([
      'signed_in',
      'unlocked',
      'locked',
      ...Array<SecurityEventKind>(LOCKOUT_THRESHOLD).fill('sign_in_failed'),
    ]);
  });

  it('records a password change and a reset, but not a refused change', async () => {
    const member = await api.createUser();
    const token = await api.signInToken(member);
    const refused = await api.call('PATCH', '/api/v1/users', {
      token,
      body: { user: { current_password: member.password, password: member.password } },
    });
    expect(refused.status).toBe(422);
    const changed = await api.call('PATCH', '/api/v1/users', {
      token,
      body: { user: { current_password: member.password, password: NEW_PASSWORD } },
    });
    expect(changed.status).toBe(200);
    await api.requestPasswordReset(member.email);
    const mail = (await api.mailTo(member.email)).at(-1);
    const reset = await api.resetPassword({
      reset_password_token: tokenFromLink(mail?.textBody ?? '', 'reset-password'),
      password: `${NEW_PASSWORD} again`,
      password_confirmation: `${NEW_PASSWORD} again`,
    });
    expect(reset.status).toBe(200);
    const after = await api.signInToken({ email: member.email, password: `${NEW_PASSWORD} again` });

    expect(await kindsOf(after)).toEqual([
      'signed_in',
      'password_reset',
      'password_changed',
      'signed_in',
    ]);
  });

  it('records the completed two-step enrollment', async () => {
    const member = await api.createUser();
    const token = await api.signInToken(member);
    const line = String(randomInt(0, 10_000_000)).padStart(7, '0');
    const phone = `(555) ${line.slice(0, 3)}-${line.slice(3)}`;
    await api.call('POST', '/api/v1/mfa', { token, body: { mfa_number: phone } });
    await api.call('POST', '/api/v1/mfa/send-otp', { token });
    const text = (await api.mailTo(`+1555${line}`)).at(-1);
    const verified = await api.call('POST', '/api/v1/mfa/verify', {
      token,
      body: { otp: codeFromText(text?.textBody ?? '') },
    });
    const mfaToken = verified.headers.get('mfa-token') ?? '';

    const response = await api.call('GET', '/api/v1/users/events', { token, mfaToken });
    const answer = (await response.json()) as EventsAnswer;
    expect(answer.events.map((event) => event.kind)).toEqual(['two_step_enabled', 'signed_in']);
  });

  it('pages 20 at a time, newest first, with next and previous cursors that keep their place', async () => {
    const member = await api.createUser();
    const start = api.clock.now().getTime();
    // 45 events, two per millisecond at times: the id orders those of the same time.
    for (let index = 0; index < 45; index += 1) {
      await recordSecurityEvent(api.db, {
        userId: member.user.id,
        kind: 'sign_in_failed',
        origin: { network: `10.0.${index}.0/24`, userAgent: null },
        at: new Date(start - Math.floor((45 - index) / 2) * MINUTE),
      });
    }
    const token = await api.signInToken(member);
    const networks = (answer: EventsAnswer) => answer.events.map((event) => event.network);
    const expected = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, offset) => `10.0.${44 - from - offset}.0/24`);

    const first = await eventsOf(token);
    expect(first.events).toHaveLength(20);
    expect(first.events[0]?.kind).toBe('signed_in');
    expect(networks(first).slice(1)).toEqual(expected(0, 19));
    expect(first.previous).toBeNull();
    const second = await eventsOf(token, `?before=${first.next ?? ''}`);
    expect(networks(second)).toEqual(expected(19, 39));
    const third = await eventsOf(token, `?before=${second.next ?? ''}`);
    expect(networks(third)).toEqual(expected(39, 45));
    expect(third.next).toBeNull();

    // A new event at the top does not move the pages below it.
    api.clock.advanceBy(MINUTE);
    await api.signOut(await api.signInToken(member));
    expect(await eventsOf(token, `?before=${first.next ?? ''}`)).toEqual(second);
    const backToSecond = await eventsOf(token, `?after=${third.previous ?? ''}`);
    expect(backToSecond.events).toEqual(second.events);
    const backToFirst = await eventsOf(token, `?after=${backToSecond.previous ?? ''}`);
    expect(backToFirst.events).toEqual(first.events);
    expect(backToFirst.previous).not.toBeNull();
  });

  it('refuses a cursor it did not give, naming the parameter, and both at once', async () => {
    const token = await api.signInToken(await api.createUser());
    for (const [query, field] of [
      ['?before=yesterday', 'before'],
      ['?before=12-', 'before'],
      ['?after=1-99999999999', 'after'],
      ['?before=1-1&after=1-1', 'after'],
    ] as const) {
      const response = await events(token, query);
      expect(response.status, query).toBe(400);
      expect((await response.json()) as unknown, query).toEqual({
        error:
          field === 'after' && query.includes('before')
            ? 'after cannot be given with before.'
            : `${field} must be the next or previous of an earlier page's answer.`,
        field,
      });
    }
  });

  it('needs a session', async () => {
    const response = await api.app.request('/api/v1/users/events');
    expect(response.status).toBe(401);
  });
});

describe('the security event sweeper', () => {
  it(`deletes the events older than ${SECURITY_EVENT_RETENTION_DAYS} days, any member's, and keeps the rest`, async () => {
    const member = await api.createUser();
    const other = await api.createUser();
    const now = api.clock.now().getTime();
    const record = (userId: number, daysAgo: number) =>
      recordSecurityEvent(api.db, {
        userId,
        kind: 'signed_in',
        origin: NO_ORIGIN,
        at: new Date(now - daysAgo * DAY),
      });
    await record(member.user.id, 91);
    await record(other.user.id, 120);
    await record(member.user.id, 89);
    const sweeper = createSecurityEventSweeper({ db: api.db, clock: api.clock });

    const removedNow = await sweeper.removeDue();
    api.clock.advanceBy(2 * DAY);
    const removedLater = await sweeper.removeDue();

    expect(removedNow).toBeGreaterThanOrEqual(2);
    expect(removedLater).toBeGreaterThanOrEqual(1);
    const left = await api.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, member.user.id));
    expect(left).toEqual([]);
  });
});
