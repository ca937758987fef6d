import type { NamedSSRLoadedRendererValue } from 'astro';
import { adjustingRenderedIslands } from './adjusting-rendered-islands';

/** The attribute React's renderer writes the result of a native form post in, for hydration. */
const actionResultAttribute = 'data-action-result';

/**
 * `renderer`, which writes on an island the result of the form post it was rendered for with the
 * error's message kept. React's renderer writes it with `JSON.stringify`, and an Error's message is
 * not an enumerable property, so it was lost: an island hydrating after a post sent before its
 * script had loaded showed the fallback message where the server had rendered the real one, React
 * found the text changed, dropped the server's HTML and rendered the form as new, without the
 * answer.
 */
export function writingActionResultsWhole(
  renderer: NamedSSRLoadedRendererValue,
): NamedSSRLoadedRendererValue {
  return adjustingRenderedIslands(renderer, (rendered, page) => {
    const attrs = rendered.attrs ?? {};
    if (!(actionResultAttribute in attrs)) return rendered;
    return {
      ...rendered,
      attrs: { ...attrs, [actionResultAttribute]: actionResultJson(page.result.actionResult) },
    };
  });
}

/**
 * An action's result as JSON, its error with the message the island shows. A server fault's
 * message is left out: it may hold internals, and the island shows its own words for one.
 */
export function actionResultJson(result: unknown): string {
  return JSON.stringify(result, (_key, value: unknown) => {
    if (!(value instanceof Error)) return value;
    const status = (value as { status?: unknown }).status;
    const shown = typeof status === 'number' && status < 500;
    // Its own enumerable properties (type, code, status; an input error's fields), and the message.
    return { ...Object.fromEntries(Object.entries(value)), message: shown ? value.message : '' };
  });
}
