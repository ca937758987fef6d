import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  describeValidationIssue,
  findUnstorableText,
  isStorableText,
  isUuid,
  jsonBody,
  queryParameters,
  uuidParameter,
  validationIssueField,
} from './validation.ts';

const schema = z.object({
  user: z.object({
    email: z.email(),
    name: z.string().min(2).max(5),
    age: z.number().int().min(18),
    role: z.enum(['member', 'staff']),
    consent: z.boolean(),
  }),
});

function firstMessage(body: unknown): string {
  const result = schema.safeParse(body);
  if (result.success) throw new Error('expected the body to be invalid');
  const [issue] = result.error.issues;
  if (!issue) throw new Error('expected an issue');
  return describeValidationIssue(issue, body);
}

const valid = { email: 'a@example.com', name: 'Ann', age: 30, role: 'member', consent: true };

describe('describeValidationIssue', () => {
  it.each([
    [{}, 'user is required.'],
    [{ user: null }, 'user must be an object.'],
    [{ user: { ...valid, email: undefined } }, 'user.email is required.'],
    [{ user: { ...valid, email: 'nope' } }, 'user.email must be an email address.'],
    [{ user: { ...valid, name: 7 } }, 'user.name must be a string.'],
    [{ user: { ...valid, name: 'A' } }, 'user.name must be at least 2 characters.'],
    [{ user: { ...valid, name: 'Annabel' } }, 'user.name must be at most 5 characters.'],
    [{ user: { ...valid, age: '30' } }, 'user.age must be a number.'],
    [{ user: { ...valid, age: 12 } }, 'user.age must be at least 18.'],
    [{ user: { ...valid, role: 'admin' } }, 'user.role must be one of: member, staff.'],
    [{ user: { ...valid, consent: 'yes' } }, 'user.consent must be true or false.'],
    [[], 'Request body must be a JSON object.'],
  ])('describes %j as "%s"', (body, message) => {
    expect(firstMessage(body)).toBe(message);
  });
});

describe('validationIssueField', () => {
  const fieldOf = (body: unknown) => {
    const result = z
      .object({ user: z.object({ topics: z.array(z.enum(['a', 'b'])), email: z.email() }) })
      .safeParse(body);
    const [issue] = result.error?.issues ?? [];
    return issue ? validationIssueField(issue) : 'valid';
  };

  it('names the field by its path in the request', () => {
    expect(fieldOf({ user: { topics: [], email: 'nope' } })).toBe('user.email');
    expect(fieldOf({})).toBe('user');
  });

  it('names the list, not the item, for a wrong item of a list', () => {
    expect(fieldOf({ user: { topics: ['a', 'c'], email: 'a@example.com' } })).toBe('user.topics');
  });

  it('names nothing for a body that is not an object', () => {
    expect(fieldOf([])).toBeUndefined();
  });
});

describe('jsonBody', () => {
  const app = new Hono().post('/echo', jsonBody(z.object({ name: z.string() })), (c) =>
    c.json(c.req.valid('json')),
  );
  const post = (body: string, contentType: string) =>
    app.request('/echo', { method: 'POST', headers: { 'Content-Type': contentType }, body });

  it('hands the parsed body to the handler', async () => {
    const response = await post('{"name":"Ann"}', 'application/json; charset=utf-8');

    expect(await response.json()).toEqual({ name: 'Ann' });
  });

  it('accepts JSON media types with a suffix', async () => {
    const response = await post('{"name":"Ann"}', 'application/merge-patch+json');

    expect(response.status).toBe(200);
  });

  it('names the invalid field in field', async () => {
    const response = await post('{"name":7}', 'application/json');
    expect(await response.json()).toEqual({ error: 'name must be a string.', field: 'name' });
  });

  it('answers 415 to other media types and 400 to broken JSON', async () => {
    expect((await post('{"name":"Ann"}', 'text/plain')).status).toBe(415);
    expect(await (await post('{name:', 'application/json')).json()).toEqual({
      error: 'Malformed JSON body.',
    });
  });

  it('refuses text the database cannot keep as sent, in any field, naming it', async () => {
    for (const name of ['\\u0000', 'a\\u0000b', '\\ud800', 'x\\udfffy']) {
      const response = await post(`{"name":"${name}"}`, 'application/json');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'name must not contain the character U+0000 or an unpaired surrogate.',
        field: 'name',
      });
    }
    // Also where the schema would drop the field: nothing gets past with it.
    expect((await post('{"name":"Ann","extra":["ok","\\u0000"]}', 'application/json')).status).toBe(
      400,
    );
  });

  it('stores control characters, bidirectional marks and paired surrogates as they are', async () => {
    const name = '\u0001\u202e\ud83d\ude00';
    const response = await post(JSON.stringify({ name }), 'application/json');

    expect(await response.json()).toEqual({ name });
  });
});

describe('findUnstorableText', () => {
  it('answers the path of the first string with U+0000 or a lone surrogate', () => {
    expect(findUnstorableText({ user: { name: 'Ann', tags: ['a', 'b\u0000'] } })).toEqual([
      'user',
      'tags',
      1,
    ]);
    expect(findUnstorableText('\udc00')).toEqual([]);
    expect(findUnstorableText({ note: { body: 'fine \ud83d\ude00', count: 3, none: null } })).toBe(
      undefined,
    );
  });

  it('tells storable text from unstorable', () => {
    expect(isStorableText('Renée \u202e \ud83d\ude00')).toBe(true);
    expect(isStorableText('\u0000')).toBe(false);
    expect(isStorableText('\ud83d')).toBe(false);
  });
});

describe('describeValidationIssue for lists and refinements', () => {
  const listSchema = z.object({
    ids: z.array(z.string()).max(1),
    type: z.string().refine((value) => value.includes('/'), { message: 'must be a media type' }),
  });
  const describeFirst = (body: unknown) => {
    const [issue] = listSchema.safeParse(body).error?.issues ?? [];
    return issue ? describeValidationIssue(issue, body) : 'valid';
  };

  it('says how many items a list may have', () => {
    expect(describeFirst({ ids: ['a', 'b'], type: 'a/b' })).toBe('ids must have at most 1 item.');
  });

  it('uses the words of a refinement after the field', () => {
    expect(describeFirst({ ids: [], type: 'pdf' })).toBe('type must be a media type.');
  });
});

describe('uuidParameter', () => {
  const app = new Hono().get('/things/:id', uuidParameter('id'), (c) => c.text('found'));

  it('lets a UUID through', async () => {
    const response = await app.request('/things/0b7e7c7e-3c55-4d5e-9d3c-1f0a2b3c4d5e');

    expect(await response.text()).toBe('found');
  });

  it.each(['1', 'abc', '0b7e7c7e-3c55-4d5e-9d3c-1f0a2b3c4d5', '0b7e7c7e3c554d5e9d3c1f0a2b3c4d5e'])(
    'answers 404 "Not found." for %s',
    async (id) => {
      const response = await app.request(`/things/${id}`);

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found.' });
    },
  );

  it('recognises UUIDs in either case', () => {
    expect(isUuid('0B7E7C7E-3C55-4D5E-9D3C-1F0A2B3C4D5E')).toBe(true);
  });
});

describe('queryParameters', () => {
  const app = new Hono().get(
    '/',
    queryParameters(z.object({ page: z.coerce.number().int().min(1).optional() })),
    (c) => c.json(c.req.valid('query')),
  );

  it('hands the parsed parameters to the handler', async () => {
    expect(await (await app.request('/?page=3')).json()).toEqual({ page: 3 });
  });

  it('answers 400 naming the parameter', async () => {
    const response = await app.request('/?page=0');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'page must be at least 1.', field: 'page' });
  });
});
