import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValidationIssue, jsonBody, validationIssueField } from './validation.ts';

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
});
