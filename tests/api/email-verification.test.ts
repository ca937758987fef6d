import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityEvents, users } from '../../api/db/schema/index.ts';
import { HOUR } from '../../platform/clock.ts';
import { SIGN_IN_MINIMUM_DURATION_MS } from '../../api/services/sign-in/timing.ts';
import {
  reloadUser,
  startTestApi,
  TEST_PASSWORD,
  tokenFromLink,
  uniqueEmail,
  type TestApi,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const INVALID_LINK = {
  error: 'This confirmation link is invalid or has expired. Sign in to ask for a new one.',
};

function confirm(token: string) {
  return api.call('PUT', '/api/v1/users/confirmation', { body: { confirmation_token: token } });
}

function resend(token: string) {
  return api.call('POST', '/api/v1/users/confirmation', { token });
}

function changeEmail(token: string, user: Record<string, unknown>) {
  return api.call('PATCH', '/api/v1/users/email', { token, body: { user } });
}

async function lastLinkTo(email: string): Promise<string> {
  const mail = (await api.mailTo(email)).at(-1);
  if (!mail) throw new Error(`No mail to ${email}.`);
  return tokenFromLink(mail.textBody, 'confirm-email');
}

async function eventsOf(
  userId: number,
  kind: 'email_verified' | 'email_changed' | 'email_change_requested',
) {
  return api.db
    .select()
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), eq(securityEvents.kind, kind)));
}

/** Signs up a new member through the API; answers the address, a session and the user id. */
async function signedUp() {
  const email = uniqueEmail();
  const response = await api.signUp({
    email,
    password: TEST_PASSWORD,
    name: 'Avery',
    last_name: 'Jordan',
  });
  expect(response.status).toBe(201);
  const token = await api.signInToken({ email, password: TEST_PASSWORD });
  const current = (await (await api.getCurrentUser(token)).json()) as Record<string, unknown>;
  const [mail] = await api.mailTo(email);
  if (!mail) throw new Error('Sign-up mailed nothing.');
  const [user] = await api.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error('No user.');
  return {
    email,
    token,
    current,
    userId: user.id,
    link: tokenFromLink(mail.textBody, 'confirm-email'),
  };
}

describe('the verification link of sign-up', () => {
  it('is mailed at sign-up, and the account is unverified until it is followed', async () => {
    const { email, current } = await signedUp();

    const mail = await api.mailTo(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Confirm your Member Concierge email address');
    expect(mail[0]?.textBody).toMatch(/^Hello,/);
    expect(mail[0]?.textBody).not.toContain('Avery');
    expect(current).toMatchObject({ email_verified: false, pending_email: null });
  });

  it('verifies the address when followed, records the event, and works once', async () => {
    const { token, link, userId } = await signedUp();

    const response = await confirm(link);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      message: 'Your email address has been confirmed.',
      changed: false,
    });
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({ email_verified: true });
    expect(await eventsOf(userId, 'email_verified')).toHaveLength(1);

    const again = await confirm(link);
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual(INVALID_LINK);
  });

  it('refuses a link after 24 hours', async () => {
    const { link, userId } = await signedUp();

    api.clock.advanceBy(24 * HOUR + 1000);
    const response = await confirm(link);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_LINK);
    expect((await reloadUser(api.db, userId)).emailVerifiedAt).toBeNull();
  });

  it('refuses a malformed or unknown token alike', async () => {
    for (const token of ['', 'not-a-token', 'A'.repeat(43)]) {
      const response = await confirm(token);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(INVALID_LINK);
    }
  });

  it('refuses the old address’s link once the address has changed', async () => {
    const { email, token, link } = await signedUp();
    const newEmail = uniqueEmail();
    expect(
      (await changeEmail(token, { current_password: TEST_PASSWORD, email: newEmail })).status,
    ).toBe(200);
    expect((await confirm(await lastLinkTo(newEmail))).status).toBe(200);

    const response = await confirm(link);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_LINK);
    expect((await api.mailTo(email)).length).toBeGreaterThan(0);
  });
});

describe('POST /api/v1/users/confirmation (a new link)', () => {
  it('mails a new link to the member’s address, and only the newest works', async () => {
    const { email, token, link } = await signedUp();

    const response = await resend(token);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: `We sent a new link to ${email}.`, email });
    expect(await api.mailTo(email)).toHaveLength(2);
    expect((await confirm(link)).status).toBe(422);
    expect((await confirm(await lastLinkTo(email))).status).toBe(200);
  });

  it('sends 3 an hour, then answers 429', async () => {
    const { email, token } = await signedUp();
    for (let sent = 0; sent < 3; sent += 1) expect((await resend(token)).status).toBe(200);

    const response = await resend(token);

    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).not.toBeNull();
    expect(await api.mailTo(email)).toHaveLength(4);
  });

  it('refuses a verified member, and anyone without a session', async () => {
    const { token, link } = await signedUp();
    await confirm(link);

    const response = await resend(token);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'Your email address is already confirmed.' });
    expect((await api.call('POST', '/api/v1/users/confirmation')).status).toBe(401);
  });
});

describe('PATCH /api/v1/users/email (changing the address)', () => {
  it('mails a link to the new address, tells the old one, and changes on the link', async () => {
    const { email, token, userId } = await signedUp();
    const newEmail = uniqueEmail().toUpperCase();

    const response = await changeEmail(token, { current_password: TEST_PASSWORD, email: newEmail });

    expect(response.status).toBe(200);
    const lower = newEmail.toLowerCase();
    expect(await response.json()).toEqual({
      message: `We sent a link to ${lower}. Your address changes when you follow it.`,
    });
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({
      email,
      pending_email: lower,
    });
    const told = (await api.mailTo(email)).at(-1);
    expect(told?.subject).toBe('A change of your Member Concierge email address was asked');
    expect(told?.textBody).not.toContain(lower);
    expect(await eventsOf(userId, 'email_change_requested')).toHaveLength(1);

    const followed = await confirm(await lastLinkTo(lower));

    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual({
      message: 'Your email address has been changed.',
      email: lower,
      changed: true,
    });
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({
      email: lower,
      email_verified: true,
      pending_email: null,
    });
    expect((await api.mailTo(email)).at(-1)?.subject).toBe(
      'Your Member Concierge email address was changed',
    );
    expect(await eventsOf(userId, 'email_changed')).toHaveLength(1);
    expect((await api.signIn({ email: lower, password: TEST_PASSWORD })).status).toBe(200);
    expect((await api.signIn({ email, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('answers a taken address exactly as a free one, and emails its owner instead', async () => {
    const owner = await api.createUser();
    const { email, token } = await signedUp();
    const free = uniqueEmail();

    const started = performance.now();
    const taken = await changeEmail(token, { current_password: TEST_PASSWORD, email: owner.email });
    expect(performance.now() - started).toBeGreaterThanOrEqual(SIGN_IN_MINIMUM_DURATION_MS - 1);
    const takenCurrent: unknown = await (await api.getCurrentUser(token)).json();
    const open = await changeEmail(token, { current_password: TEST_PASSWORD, email: free });

    expect(taken.status).toBe(open.status);
    expect(await taken.json()).toEqual({
      message: `We sent a link to ${owner.email}. Your address changes when you follow it.`,
    });
    expect(await open.json()).toEqual({
      message: `We sent a link to ${free}. Your address changes when you follow it.`,
    });
    expect(takenCurrent).toMatchObject({ email, pending_email: owner.email });
    const ownerMail = await api.mailTo(owner.email);
    expect(ownerMail).toHaveLength(1);
    expect(ownerMail[0]?.subject).toBe('Someone tried to use your Member Concierge email address');
    expect(ownerMail[0]?.textBody).not.toContain('/confirm-email/');
    // The old address is told of both requests alike.
    expect((await api.mailTo(email)).filter((m) => m.subject?.includes('was asked'))).toHaveLength(
      2,
    );
  });

  it('refuses the change when the address was taken between the request and the link', async () => {
    const { email, token } = await signedUp();
    const wanted = uniqueEmail();
    await changeEmail(token, { current_password: TEST_PASSWORD, email: wanted });
    const link = await lastLinkTo(wanted);
    await api.createUser({ email: wanted });

    const response = await confirm(link);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'This email address is now used by another account, so yours was not changed.',
    });
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({ email });
  });

  it('refuses a wrong current password, counted by the lockout, mailing nothing', async () => {
    const { email, token, userId } = await signedUp();
    const newEmail = uniqueEmail();
    const before = (await api.mailTo(email)).length;

    const response = await changeEmail(token, {
      current_password: 'not the password at all',
      email: newEmail,
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Your current password is not right.',
      field: 'user.current_password',
    });
    expect((await reloadUser(api.db, userId)).failedAttempts).toBe(1);
    expect(await api.mailTo(newEmail)).toHaveLength(0);
    expect(await api.mailTo(email)).toHaveLength(before);
    expect(await eventsOf(userId, 'email_change_requested')).toHaveLength(0);
  });

  it('refuses the current address and a malformed one', async () => {
    const { email, token } = await signedUp();

    const same = await changeEmail(token, { current_password: TEST_PASSWORD, email });
    expect(same.status).toBe(422);
    expect(await same.json()).toEqual({
      error: 'That is already your email address.',
      field: 'user.email',
    });
    const malformed = await changeEmail(token, {
      current_password: TEST_PASSWORD,
      email: 'not an address',
    });
    expect(malformed.status).toBe(400);
  });

  it('requires a session', async () => {
    const response = await api.call('PATCH', '/api/v1/users/email', {
      body: { user: { current_password: TEST_PASSWORD, email: uniqueEmail() } },
    });
    expect(response.status).toBe(401);
  });
});
