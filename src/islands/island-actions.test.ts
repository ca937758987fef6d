// devalue is the serializer Astro answers actions with; the tests write with it directly so that
// the reader is checked against the real format, not against a copy of it.
import { stringify } from 'devalue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isInputError } from '../lib/action-failure';
import { actions, decodeActionData } from './island-actions';

describe('decodeActionData', () => {
  it.each([
    ['an object with a redirect', { redirectTo: '/dashboard' }],
    ['nested objects and lists', { notice: 'Sent.', codes: [1, 2], flags: { a: true, b: null } }],
    ['a list of strings', ['one', 'two']],
    ['an empty list and object', { list: [], object: {} }],
    ['a value used twice', { first: 'same', second: 'same' }],
    ['a plain string', 'done'],
    ['a number', 42],
  ])('reads %s exactly as Astro wrote it', (_name, value) => {
    expect(decodeActionData(stringify(value))).toEqual(value);
  });

  it('reads undefined, and a field left undefined', () => {
    expect(decodeActionData(stringify(undefined))).toBeUndefined();
    expect(decodeActionData(stringify({ maybe: undefined }))).toEqual({ maybe: undefined });
  });

  it('refuses a type that is not plain data rather than half-reading it', () => {
    expect(() => decodeActionData(stringify({ when: new Date(0) }))).toThrow(/Date/);
    expect(() => decodeActionData(stringify(new Map()))).toThrow(/Map/);
  });

  it('refuses an answer that is not devalue', () => {
    expect(() => decodeActionData('{"redirectTo":"/x"}')).toThrow();
    expect(() => decodeActionData('[[7]]')).toThrow();
  });
});

describe('actions', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const answer = (status: number, body: string) => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response(body, { status })));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  };

  it('posts a form to the action and reads its data', async () => {
    const fetchMock = answer(200, stringify({ redirectTo: '/dashboard' }));
    const form = new FormData();
    form.set('email', 'member@example.com');

    const result = await actions.auth.signIn(form);

    expect(result).toEqual({ data: { redirectTo: '/dashboard' }, error: undefined });
    expect(fetchMock).toHaveBeenCalledWith('/_actions/auth.signIn/', {
      method: 'POST',
      body: form,
      headers: expect.any(Headers) as Headers,
    });
  });

  it('renders the same native form target as Astro: the page itself with ?_action', () => {
    const action = actions.auth.signIn as unknown as {
      toString(): string;
      $$FORM_ACTION(): unknown;
    };
    expect(action.toString()).toBe('?_action=auth.signIn');
    expect(action.$$FORM_ACTION()).toEqual({
      method: 'POST',
      name: '_astroAction',
      action: '?_action=auth.signIn',
    });
  });

  it('turns an input error into messages by field', async () => {
    answer(
      400,
      JSON.stringify({
        type: 'AstroActionInputError',
        issues: [
          { path: ['email'], message: 'Enter your email address' },
          { path: ['email'], message: 'Enter a valid email address' },
          { path: [], message: 'ignored: no field' },
        ],
      }),
    );

    const { error } = await actions.auth.signIn(new FormData());

    expect(isInputError(error)).toBe(true);
    expect(isInputError(error) && error.fields).toEqual({
      email: ['Enter your email address', 'Enter a valid email address'],
    });
  });

  it('keeps the status and message of any other failure', async () => {
    answer(
      401,
      JSON.stringify({ type: 'AstroActionError', code: 'UNAUTHORIZED', message: 'No entry.' }),
    );

    const { error } = await actions.auth.signIn(new FormData());

    expect(isInputError(error)).toBe(false);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'No entry.' });
  });

  it('reports a failure whose answer is not JSON by its status alone', async () => {
    answer(502, '<html>Bad gateway</html>');

    const { error } = await actions.auth.signIn(new FormData());

    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_SERVER_ERROR', message: '' });
  });
});
