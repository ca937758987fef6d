import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../api/db/schema/index.ts';
import { HOUR } from '../../platform/clock.ts';
import { SIGN_UP_PER_IP, windowStartFor } from '../../api/services/rate-limits.ts';
import {
  randomClientAddress,
  startTestApi,
  TEST_PASSWORD,
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

const UNKNOWN_COMPANY = 'We do not know that company. Check the link you were given.';
const EMAIL_TAKEN = 'An account with this email address already exists.';

function newMember(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: uniqueEmail(),
    password: TEST_PASSWORD,
    name: 'Robin',
    last_name: 'Fairweather',
    terms_of_service: 1,
    company_slug: null,
    ...fields,
  };
}

async function createCompany(slug: string, name = `Company ${slug}`): Promise<void> {
  await api.db.insert(companies).values({ name, slug, createdAt: api.clock.now() });
}

async function userByEmail(email: string) {
  const [user] = await api.db.select().from(users).where(eq(users.email, email));
  return user;
}

async function currentUserOf(account: { email: string; password: string }) {
  const token = await api.signInToken(account);
  return (await (await api.getCurrentUser(token)).json()) as {
    email: string;
    full_name: string;
    company: { name: string } | null;
  };
}

describe('POST /api/v1/users/sign_up', () => {
  it('answers 201 with data, a JSON string holding the email, and the account can sign in', async () => {
    const fields = newMember();

    const response = await api.signUp(fields);

    expect(response.status).toBe(201);
    const body = (await response.json()) as { data: unknown };
    expect(Object.keys(body)).toEqual(['data']);
    expect(typeof body.data).toBe('string');
    expect(JSON.parse(body.data as string)).toEqual({ email: fields['email'] });
    expect(
      await currentUserOf({ email: fields['email'] as string, password: TEST_PASSWORD }),
    ).toMatchObject({ email: fields['email'], full_name: 'Robin Fairweather', company: null });
  });

  it('offers MFA enrollment at the first sign-in after sign-up', async () => {
    const fields = newMember();
    await api.signUp(fields);

    const signIn = await api.signIn({ email: fields['email'] as string, password: TEST_PASSWORD });

    expect(await signIn.json()).toMatchObject({
      mfa_requires_verification: true,
      mfa_required: false,
    });
  });

  it('lower-cases and trims the email, and stores an argon2id hash and an external id', async () => {
    const email = uniqueEmail();

    const response = await api.signUp(newMember({ email: `  ${email.toUpperCase()} ` }));

    expect(JSON.parse(((await response.json()) as { data: string }).data)).toEqual({ email });
    const user = await userByEmail(email);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.passwordHash).not.toContain(TEST_PASSWORD);
    expect(user?.externalId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(user?.mfaPhone).toBeNull();
  });

  it('puts the member in the company of the slug, whatever its letter case', async () => {
    await createCompany('globex', 'Globex Corporation');
    const fields = newMember({ company_slug: 'GlobeX' });

    expect((await api.signUp(fields)).status).toBe(201);

    expect(
      await currentUserOf({ email: fields['email'] as string, password: TEST_PASSWORD }),
    ).toMatchObject({ company: { name: 'Globex Corporation' } });
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['absent', undefined],
  ])('creates a member without a company when the slug is %s', async (_, slug) => {
    const fields = newMember({ company_slug: slug });

    expect((await api.signUp(fields)).status).toBe(201);

    expect((await userByEmail(fields['email'] as string))?.companyId).toBeNull();
  });

  it('refuses an unknown company slug, naming the field, and creates nothing', async () => {
    const fields = newMember({ company_slug: 'no-such-company' });

    const response = await api.signUp(fields);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: UNKNOWN_COMPANY, field: 'user.company_slug' });
    expect(await userByEmail(fields['email'] as string)).toBeUndefined();
  });

  it('refuses an email that already has an account, whatever its letter case', async () => {
    const existing = await api.createUser();

    for (const email of [existing.email, existing.email.toUpperCase()]) {
      const response = await api.signUp(newMember({ email }));

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ error: EMAIL_TAKEN, field: 'user.email' });
    }
    expect((await api.signIn(existing)).status).toBe(200);
  });

  it.each([
    ['too short', 'short', 'Password must be at least 8 characters.'],
    ['too long', 'x'.repeat(129), 'Password must be at most 128 characters.'],
    ['common', 'password123', 'This password is too common. Please choose a less predictable one.'],
    ['the name', 'Robin Fairweather', 'Password must not be your email address or your name.'],
    ['the last name', 'fairweather', 'Password must not be your email address or your name.'],
  ])('refuses a password that is %s with the rule’s own sentence', async (_, password, message) => {
    const fields = newMember({ password });

    const response = await api.signUp(fields);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: message, field: 'user.password' });
    expect(await userByEmail(fields['email'] as string)).toBeUndefined();
  });

  it('refuses the email address as the password', async () => {
    const email = uniqueEmail();

    const response = await api.signUp(newMember({ email, password: email.toUpperCase() }));

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Password must not be your email address or your name.',
      field: 'user.password',
    });
  });

  it.each([
    ['1', 1],
    ['"1"', '1'],
    ['true', true],
    ['absent (it defaults to 1)', undefined],
  ])('accepts terms_of_service %s', async (_, terms) => {
    expect((await api.signUp(newMember({ terms_of_service: terms }))).status).toBe(201);
  });

  it.each([
    ['0', 0],
    ['"0"', '0'],
    ['false', false],
    ['null', null],
    ['"no"', 'no'],
  ])('refuses terms_of_service %s, naming the field', async (_, terms) => {
    const fields = newMember({ terms_of_service: terms });

    const response = await api.signUp(fields);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Please accept the terms of service to create your account.',
      field: 'user.terms_of_service',
    });
    expect(await userByEmail(fields['email'] as string)).toBeUndefined();
  });

  it.each([
    [{ name: undefined }, 'user.name is required.', 'user.name'],
    [{ name: '   ' }, 'user.name must not be empty.', 'user.name'],
    [{ last_name: 7 }, 'user.last_name must be a string.', 'user.last_name'],
    [{ email: 'not an email' }, 'user.email must be an email address.', 'user.email'],
    [{ password: undefined }, 'user.password is required.', 'user.password'],
  ])('answers 400 naming the field to %j', async (change, message, field) => {
    const response = await api.signUp(newMember(change));

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message, field });
  });

  it(
    'creates one account when the same email signs up twice at the same moment',
    { tags: ['database'] },
    async () => {
      const email = uniqueEmail();

      const answers = await Promise.all([
        api.signUp(newMember({ email })),
        api.signUp(newMember({ email })),
      ]);

      expect(answers.map((response) => response.status).sort()).toEqual([201, 422]);
      expect(await api.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    },
  );
});

describe('sign-up rate limit per client address', () => {
  it('answers 429 with Retry-After after 20 sign-ups from one address in an hour', async () => {
    const clientAddress = randomClientAddress();
    api.clock.set(new Date(windowStartFor(api.clock.now(), HOUR).getTime() + HOUR + 15 * 60_000));
    // Refused sign-ups count too (each tells whether an email has an account).
    for (let attempt = 1; attempt <= SIGN_UP_PER_IP.limit; attempt += 1) {
      const response = await api.signUp(newMember({ company_slug: 'no-such-company' }), {
        clientAddress,
      });
      expect(response.status).toBe(422);
    }

    const refused = await api.signUp(newMember(), { clientAddress });

    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'Too many attempts. Please wait a few minutes and try again.',
    });
    expect(refused.headers.get('Retry-After')).toBe(String(45 * 60));
    expect((await api.signUp(newMember(), { clientAddress: randomClientAddress() })).status).toBe(
      201,
    );

    api.clock.advanceBy(45 * 60_000);
    expect((await api.signUp(newMember(), { clientAddress })).status).toBe(201);
  });
});
