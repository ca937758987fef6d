import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitBuckets } from '../../api/db/schema/index.ts';
import { HOUR } from '../../platform/clock.ts';
import {
  accountSubject,
  PASSWORD_RESET_PER_ACCOUNT,
  PASSWORD_RESET_PER_IP,
  UNLOCK_REQUEST_PER_ACCOUNT,
  UNLOCK_REQUEST_PER_IP,
  windowStartFor,
  type RateLimitRule,
} from '../../api/services/rate-limits.ts';
import { randomClientAddress, startTestApi, uniqueEmail, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const TOO_MANY = { error: 'Too many attempts. Please wait a few minutes and try again.' };

function secondsLeftInHourWindow(): string {
  const now = api.clock.now();
  const windowEnd = windowStartFor(now, HOUR).getTime() + HOUR;
  return String(Math.ceil((windowEnd - now.getTime()) / 1000));
}

async function answerOf(response: Response) {
  return {
    status: response.status,
    retryAfter: response.headers.get('Retry-After'),
    body: await response.text(),
  };
}

/** Fills a rule's bucket for `subject` in the current window, as if the limit had been spent. */
async function spendLimit(rule: RateLimitRule, subject: string): Promise<void> {
  await api.db.insert(rateLimitBuckets).values({
    key: `${rule.name}:${subject}`,
    windowStart: windowStartFor(api.clock.now(), rule.windowMs),
    count: rule.limit,
  });
}

const journeys = [
  {
    name: 'password reset requests',
    perAccount: PASSWORD_RESET_PER_ACCOUNT,
    perIp: PASSWORD_RESET_PER_IP,
    send: (email: string, clientAddress?: string) =>
      api.requestPasswordReset(email, clientAddress ? { clientAddress } : {}),
  },
  {
    name: 'unlock link requests',
    perAccount: UNLOCK_REQUEST_PER_ACCOUNT,
    perIp: UNLOCK_REQUEST_PER_IP,
    send: (email: string, clientAddress?: string) =>
      api.requestUnlock(email, clientAddress ? { clientAddress } : {}),
  },
];

describe.each(journeys)('rate limits of $name', ({ perAccount, perIp, send }) => {
  it('allows 5 an hour per account, then answers 429 with Retry-After — the same for an unknown email', async () => {
    const account = await api.createUser();
    const unknown = uniqueEmail();
    for (let request = 1; request <= 5; request += 1) {
      expect((await send(account.email)).status).toBe(200);
      expect((await send(unknown)).status).toBe(200);
    }

    const known = await answerOf(await send(account.email));
    const stranger = await answerOf(await send(unknown));

    expect(known).toEqual({
      status: 429,
      retryAfter: secondsLeftInHourWindow(),
      body: JSON.stringify(TOO_MANY),
    });
    expect(stranger).toEqual(known);
    expect(perAccount).toMatchObject({ limit: 5, windowMs: HOUR });
  });

  it('counts the account by its normalised email, whatever the letter case', async () => {
    const account = await api.createUser();
    await spendLimit(perAccount, accountSubject(account.email));

    expect((await send(`  ${account.email.toUpperCase()}`)).status).toBe(429);
  });

  it('lets the account ask again once the hour has passed', async () => {
    const account = await api.createUser();
    await spendLimit(perAccount, accountSubject(account.email));
    expect((await send(account.email)).status).toBe(429);

    api.clock.set(new Date(windowStartFor(api.clock.now(), HOUR).getTime() + HOUR));

    expect((await send(account.email)).status).toBe(200);
  });

  it('does not hold one account’s limit against another', async () => {
    const busy = await api.createUser();
    const other = await api.createUser();
    await spendLimit(perAccount, accountSubject(busy.email));

    expect((await send(other.email)).status).toBe(200);
  });

  it('allows 30 an hour per client address, then answers 429 with Retry-After', async () => {
    const clientAddress = '198.51.100.23';
    expect(perIp).toMatchObject({ limit: 30, windowMs: HOUR });
    await spendLimit(perIp, clientAddress);

    const refused = await answerOf(await send(uniqueEmail(), clientAddress));

    expect(refused).toEqual({
      status: 429,
      retryAfter: secondsLeftInHourWindow(),
      body: JSON.stringify(TOO_MANY),
    });
    expect((await send(uniqueEmail(), randomClientAddress())).status).toBe(200);
  });
});

describe('counting requests per client address', () => {
  it('refuses the 31st reset request from one address within the hour', async () => {
    api.clock.set(new Date(windowStartFor(api.clock.now(), HOUR).getTime() + HOUR));
    const clientAddress = '198.51.100.77';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.requestPasswordReset(uniqueEmail(), { clientAddress })),
    );
    expect(answers.every((response) => response.status === 200)).toBe(true);

    const thirtyFirst = await api.requestPasswordReset(uniqueEmail(), { clientAddress });

    expect(thirtyFirst.status).toBe(429);
    expect(thirtyFirst.headers.get('Retry-After')).toBe(secondsLeftInHourWindow());
  });
});
