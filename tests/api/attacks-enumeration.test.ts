import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../api/db/schema/index.ts';
import { TOKEN_REQUEST_MINIMUM_DURATION_MS } from '../../api/services/sign-in/account-tokens.ts';
import { SIGN_IN_MINIMUM_DURATION_MS } from '../../api/services/sign-in/timing.ts';
import { lockAccount } from './attacks-support.ts';
import { startTestApi, uniqueEmail, type TestApi, type TestUser } from './support.ts';

/**
 * No answer tells whether an email has an account (docs/PRODUCT.md §11.2): sign-in, a reset
 * request and an unlock request answer a known and an unknown address with the same status, the
 * same body and the same time.
 *
 * Timing: the median of {@link TRIES} tries each, known and unknown interleaved so that a burst
 * of load on the machine falls on both, may differ by at most {@link TIMING_TOLERANCE_MS}. The
 * work only a known account costs (a transaction, a token and an email) is a few milliseconds,
 * and argon2 30 to 40 ms, so the tolerance is wide enough for a loaded 2-core machine and still
 * narrower than what skipping the decoy hash would show; the answers also wait out their floors,
 * which is what hides the smaller differences.
 */
const TRIES = 9;
const TIMING_TOLERANCE_MS = 15;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** What a caller can see of an answer, but the request id, which is new on every call. */
async function observable(response: Response): Promise<Answer> {
  const headers = Object.fromEntries(
    [...response.headers.entries()].filter(([name]) => name !== 'x-request-id'),
  );
  return { status: response.status, body: await response.text(), headers };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function duration(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  await (await call()).text();
  return performance.now() - started;
}

/**
 * Medians of `TRIES` timed calls for a known and an unknown account, interleaved. `knownAccount`
 * gives the address of each try, so that no per-account limit is reached on the way.
 */
async function medianDurations(
  knownAccount: (attempt: number) => Promise<string>,
  call: (email: string) => Promise<Response>,
): Promise<{ known: number; unknown: number }> {
  const known: number[] = [];
  const unknown: number[] = [];
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const email = await knownAccount(attempt);
    known.push(await duration(() => call(email)));
    unknown.push(await duration(() => call(uniqueEmail())));
  }
  return { known: median(known), unknown: median(unknown) };
}

describe('sign-in does not tell whether an email has an account', () => {
  it('answers a wrong password, an unknown email and a locked account with the same status, body and headers', async () => {
    const account = await api.createUser();
    const locked = await api.createUser();
    await lockAccount(api, locked);

    const answers = await Promise.all([
      api.signIn({ email: account.email, password: 'not the password' }).then(observable),
      api.signIn({ email: uniqueEmail(), password: 'not the password' }).then(observable),
      api.signIn({ email: locked.email, password: locked.password }).then(observable),
    ]);

    expect(answers[0]).toMatchObject({ status: 401 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it(`takes as long for a known as for an unknown email (medians within ${TIMING_TOLERANCE_MS} ms)`, async () => {
    const account = await api.createUser();

    const { known, unknown } = await medianDurations(
      () => Promise.resolve(account.email),
      (email) => api.signIn({ email, password: 'not the password' }),
    );

    expect(Math.abs(known - unknown)).toBeLessThanOrEqual(TIMING_TOLERANCE_MS);
    expect(Math.min(known, unknown)).toBeGreaterThanOrEqual(SIGN_IN_MINIMUM_DURATION_MS - 1);
  });
});

/** The two requests that email a link to a known address and do nothing for an unknown one. */
const linkRequests: [string, (email: string) => Promise<Response>][] = [
  ['a reset request (POST /users/password)', (email) => api.requestPasswordReset(email)],
  ['an unlock request (POST /users/unlock)', (email) => api.requestUnlock(email)],
];

describe.each(linkRequests)('%s does not tell whether an email has an account', (_, request) => {
  it('answers a known, a locked and an unknown email with the same status, body and headers', async () => {
    const account = await api.createUser();
    const locked = await api.createUser();
    await lockAccount(api, locked);

    const known = await observable(await request(account.email));
    const lockedAnswer = await observable(await request(locked.email));
    const unknown = await observable(await request(uniqueEmail()));

    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    expect(lockedAnswer).toEqual(known);
  });

  it(`takes as long for a known as for an unknown email (medians within ${TIMING_TOLERANCE_MS} ms)`, async () => {
    // A locked account of its own for each try: the unlock request then writes a token and an
    // email (the most work it can do), and no per-account limit is reached.
    const accounts: TestUser[] = [];
    for (let index = 0; index < TRIES; index += 1) accounts.push(await api.createUser());
    // Locked directly: how the lock came about does not matter here, and is slow to repeat.
    await api.db
      .update(users)
      .set({ lockedAt: api.clock.now() })
      .where(
        inArray(
          users.id,
          accounts.map((account) => account.user.id),
        ),
      );

    const { known, unknown } = await medianDurations(
      (attempt) => Promise.resolve(accounts[attempt]?.email ?? ''),
      request,
    );

    expect(Math.abs(known - unknown)).toBeLessThanOrEqual(TIMING_TOLERANCE_MS);
    expect(Math.min(known, unknown)).toBeGreaterThanOrEqual(TOKEN_REQUEST_MINIMUM_DURATION_MS - 1);
  });

  it('answers the limit of one address typed the same, known or unknown', async () => {
    const account = await api.createUser();
    const unknownEmail = uniqueEmail();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await Promise.all([request(account.email), request(unknownEmail)]);
    }

    const known = await observable(await request(account.email));
    const unknown = await observable(await request(unknownEmail));

    expect(known.status).toBe(429);
    expect(unknown).toEqual(known);
  });
});
