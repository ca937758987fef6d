import type { AstroComponentMetadata, NamedSSRLoadedRendererValue } from 'astro';
import { describe, expect, it } from 'vitest';
import { actionResultJson, writingActionResultsWhole } from './writing-action-results-whole';

/**
 * Astro's ActionError as it is built (its module loads Astro's virtual modules, which only a
 * build resolves): the type, code and status are class fields, the message is the Error's own.
 */
class ActionError extends Error {
  type = 'AstroActionError';
  code: string;
  status: number;
  constructor({ code, message }: { code: string; message: string }) {
    super(message);
    this.code = code;
    this.status =
      ({ BAD_REQUEST: 400, UNPROCESSABLE_CONTENT: 422 } as Record<string, number>)[code] ?? 500;
  }
}

/** React's renderer as it writes a form post's result: with `JSON.stringify`. */
const reactLike: NamedSSRLoadedRendererValue = {
  name: 'test',
  check: () => Promise.resolve(true),
  async renderToStaticMarkup(this: { result: { actionResult?: unknown } }) {
    const { actionResult } = this.result;
    return Promise.resolve({
      html: '<form></form>',
      attrs: actionResult
        ? { prefix: 'r0', 'data-action-result': JSON.stringify(actionResult) }
        : { prefix: 'r0' },
    });
  },
};

const metadata = { hydrate: 'paint' } as unknown as AstroComponentMetadata;

async function renderAfter(actionResult: unknown) {
  const renderer = writingActionResultsWhole(reactLike);
  return renderer.renderToStaticMarkup.call(
    { result: { actionResult } },
    () => null,
    {},
    {},
    metadata,
  );
}

describe('writingActionResultsWhole', () => {
  it('writes a refused post with the message the server gave', async () => {
    const error = new ActionError({ code: 'UNPROCESSABLE_CONTENT', message: 'Link expired.' });
    const rendered = await renderAfter({ data: undefined, error });
    expect(JSON.parse(rendered.attrs?.['data-action-result'] ?? '')).toEqual({
      error: {
        type: 'AstroActionError',
        code: 'UNPROCESSABLE_CONTENT',
        status: 422,
        message: 'Link expired.',
      },
    });
    expect(rendered.attrs?.['prefix']).toBe('r0');
  });

  it('leaves an island rendered without a form post as it was', async () => {
    expect(await renderAfter(undefined)).toEqual({
      html: '<form></form>',
      attrs: { prefix: 'r0' },
    });
  });
});

describe('actionResultJson', () => {
  it('keeps what an answer holds', () => {
    const result = { data: { notice: 'Sent.', count: 2 }, error: undefined };
    expect(JSON.parse(actionResultJson(result))).toEqual({ data: { notice: 'Sent.', count: 2 } });
  });

  it('leaves out the message of a server fault, which may hold internals', () => {
    const error = new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: 'at db.query' });
    expect(JSON.parse(actionResultJson({ error }))).toEqual({
      error: { type: 'AstroActionError', code: 'INTERNAL_SERVER_ERROR', status: 500, message: '' },
    });
  });

  it('keeps the messages of an input error by field', () => {
    const error = Object.assign(new ActionError({ code: 'BAD_REQUEST', message: 'Invalid.' }), {
      type: 'AstroActionInputError',
      fields: { email: ['Enter a valid email address.'] },
    });
    expect((JSON.parse(actionResultJson({ error })) as { error: unknown }).error).toMatchObject({
      type: 'AstroActionInputError',
      fields: { email: ['Enter a valid email address.'] },
    });
  });

  it('never writes the stack', () => {
    const error = new ActionError({ code: 'BAD_REQUEST', message: 'No.' });
    expect(actionResultJson({ error })).not.toContain('stack');
  });
});
