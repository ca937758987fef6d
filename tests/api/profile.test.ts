import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../contract/profile-choices.ts';
import { reloadUser, startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

const PHONE_REQUIRED = {
  error: 'Add a phone number to be contacted by phone or text.',
  field: 'user.phone_number',
};

async function signedIn() {
  const account = await api.createUser({ companyName: 'Acme Health' });
  return { account, token: await api.signInToken(account) };
}

function patchProfile(token: string | undefined, user: unknown) {
  return api.call('PATCH', '/api/v1/users/current', { token, body: { user } });
}

describe('PATCH /api/v1/users/current', () => {
  it('saves the profile answers and contact information, and GET answers them', async () => {
    const { account, token } = await signedIn();

    const response = await patchProfile(token, {
      help_topics: ['travel', 'finance_and_legal'],
      phone_number: '555-010-9876',
      preferred_contact_method: 'text',
    });

    expect(response.status).toBe(200);
    const expected = {
      external_id: account.user.externalId,
      full_name: 'Avery Jordan',
      name: 'Avery',
      last_name: 'Jordan',
      email: account.email,
      company: { name: 'Acme Health' },
      request_count: 0,
      help_topics: ['travel', 'finance_and_legal'],
      phone_number: '(555) 010-9876',
      preferred_contact_method: 'text',
      mfa_enrolled: false,
      phone_last_digits: null,
      email_verified: true,
      pending_email: null,
      company_sign_in: false,
    };
    expect(await response.json()).toEqual(expected);
    expect(await (await api.getCurrentUser(token)).json()).toEqual(expected);
    expect((await reloadUser(api.db, account.user.id)).contactPhone).toBe('+15550109876');
  });

  it('changes only the fields it is given', async () => {
    const { token } = await signedIn();
    await patchProfile(token, { help_topics: ['travel'], phone_number: '5550101234' });

    const response = await patchProfile(token, { preferred_contact_method: 'phone' });

    expect(await response.json()).toMatchObject({
      help_topics: ['travel'],
      phone_number: '(555) 010-1234',
      preferred_contact_method: 'phone',
    });
  });

  it('accepts every help topic of the list once, and an empty list', async () => {
    const { token } = await signedIn();

    const all = await patchProfile(token, { help_topics: [...HELP_TOPICS, 'travel'] });
    expect(await all.json()).toMatchObject({ help_topics: [...HELP_TOPICS] });

    const none = await patchProfile(token, { help_topics: [] });
    expect(await none.json()).toMatchObject({ help_topics: [] });
  });

  it('clears the contact phone and the preferred method with null', async () => {
    const { token } = await signedIn();
    await patchProfile(token, { phone_number: '5550101234', preferred_contact_method: 'email' });

    const response = await patchProfile(token, {
      phone_number: null,
      preferred_contact_method: null,
    });

    expect(await response.json()).toMatchObject({
      phone_number: null,
      preferred_contact_method: null,
    });
  });

  it('refuses a help topic that is not on the list, naming the field', async () => {
    const { account, token } = await signedIn();

    const response = await patchProfile(token, { help_topics: ['travel', 'astrology'] });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: `user.help_topics.1 must be one of: ${HELP_TOPICS.join(', ')}.`,
      field: 'user.help_topics',
    });
    expect((await reloadUser(api.db, account.user.id)).helpTopics).toEqual([]);
  });

  it('refuses a contact by phone or text without a contact phone', async () => {
    const { token } = await signedIn();

    for (const method of ['phone', 'text']) {
      const response = await patchProfile(token, { preferred_contact_method: method });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(PHONE_REQUIRED);
    }
    expect(
      (
        await patchProfile(token, {
          preferred_contact_method: 'text',
          phone_number: '(555) 010-1234',
        })
      ).status,
    ).toBe(200);
  });

  it('refuses to remove the phone while the member asks to be called or texted', async () => {
    const { token } = await signedIn();
    await patchProfile(token, { phone_number: '5550101234', preferred_contact_method: 'phone' });

    const response = await patchProfile(token, { phone_number: null });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(PHONE_REQUIRED);
  });

  it('refuses a contact phone that is not a 10-digit US number', async () => {
    const { token } = await signedIn();

    const response = await patchProfile(token, { phone_number: '020 7946 0958' });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Enter a 10-digit US phone number, e.g. (555) 123-4567.',
      field: 'user.phone_number',
    });
  });

  it.each([
    [
      {},
      'user must have name, last_name, help_topics, phone_number or preferred_contact_method.',
      'user',
    ],
    [{ name: '   ' }, 'user.name must not be empty.', 'user.name'],
    [{ last_name: '' }, 'user.last_name must not be empty.', 'user.last_name'],
    [{ name: null }, 'user.name must be a string.', 'user.name'],
    [{ last_name: 7 }, 'user.last_name must be a string.', 'user.last_name'],
    [{ name: 'x'.repeat(101) }, 'user.name must be at most 100 characters.', 'user.name'],
    [
      { preferred_contact_method: 'pigeon' },
      'user.preferred_contact_method must be one of: email, phone, text.',
      'user.preferred_contact_method',
    ],
    [{ help_topics: 'travel' }, 'user.help_topics must be a list.', 'user.help_topics'],
  ])('answers 400 naming the field to %j', async (user, message, field) => {
    const { token } = await signedIn();

    const response = await patchProfile(token, user);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message, field });
  });

  it('changes the first and last name, trimmed, and full_name with them', async () => {
    const { account, token } = await signedIn();

    const response = await patchProfile(token, { name: '  Robin ', last_name: 'de la Cruz  ' });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      full_name: 'Robin de la Cruz',
      name: 'Robin',
      last_name: 'de la Cruz',
    });
    expect(await (await api.getCurrentUser(token)).json()).toMatchObject({
      full_name: 'Robin de la Cruz',
    });
    const stored = await reloadUser(api.db, account.user.id);
    expect([stored.name, stored.lastName]).toEqual(['Robin', 'de la Cruz']);
  });

  it('takes names of 100 characters, as sign-up does, and one name without the other', async () => {
    const { token } = await signedIn();
    const longest = 'é'.repeat(100);

    const response = await patchProfile(token, { name: longest });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: longest, last_name: 'Jordan' });
  });

  it('refuses the sign-up names in the same words', async () => {
    const { token } = await signedIn();
    const sameAtSignUp = async (user: Record<string, unknown>) => {
      const base = { email: `x${Math.random()}@example.com`, password: 'a-long-password-2026' };
      const signUp = await api.signUp({
        name: 'Robin',
        last_name: 'Fairweather',
        ...base,
        ...user,
      });
      const profile = await patchProfile(token, user);
      return [
        [signUp.status, await signUp.json()],
        [profile.status, await profile.json()],
      ];
    };

    for (const user of [{ name: '' }, { last_name: ' ' }, { name: 'y'.repeat(101) }]) {
      const [atSignUp, atProfile] = await sameAtSignUp(user);
      expect(atProfile).toEqual(atSignUp);
    }
  });

  it('changes nothing when any field of the call is refused', async () => {
    const { account, token } = await signedIn();

    const response = await patchProfile(token, {
      name: 'Robin',
      last_name: 'Fairweather',
      help_topics: ['travel'],
      preferred_contact_method: 'text',
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(PHONE_REQUIRED);
    const stored = await reloadUser(api.db, account.user.id);
    expect([stored.name, stored.lastName, stored.helpTopics]).toEqual(['Avery', 'Jordan', []]);
  });

  it('keeps the contact phone apart from the phone enrolled for MFA', async () => {
    const { token } = await signedIn();

    const response = await patchProfile(token, { phone_number: '5550101234' });

    expect(await response.json()).toMatchObject({
      phone_number: '(555) 010-1234',
      mfa_enrolled: false,
      phone_last_digits: null,
      email_verified: true,
      pending_email: null,
    });
  });

  it('answers 401 without a session', async () => {
    const response = await patchProfile(undefined, { help_topics: ['travel'] });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'Your session has expired. Please sign in again.',
    });
  });
});
