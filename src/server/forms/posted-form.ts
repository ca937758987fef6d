import type { SafeResult } from 'astro:actions';
import { formFailure, isInputError } from '../../lib/action-failure';
import type { PostedForm } from '../../lib/posted-form';
import { postedForm } from './form-body';

/**
 * The failed post of one action, or `undefined` when the page was not rendered for one. `limit` is
 * the route's body limit (the form may carry a file); `fields` are the text fields to show again.
 */
export async function postedFormState(
  request: Request,
  {
    result,
    fallbackMessage,
    fields,
    limit,
  }: {
    result: SafeResult<Record<string, unknown>, unknown> | undefined;
    fallbackMessage: string;
    fields: readonly string[];
    limit: number;
  },
): Promise<PostedForm | undefined> {
  if (!result?.error) return undefined;
  const form = await postedForm(request, limit);
  const values: Record<string, string> = {};
  for (const name of fields) {
    const value = form?.get(name);
    if (typeof value === 'string') values[name] = value;
  }
  const fieldErrors: Record<string, string> = {};
  if (isInputError(result.error)) {
    for (const [name, messages] of Object.entries(result.error.fields)) {
      const [first] = messages;
      if (first) fieldErrors[name] = first;
    }
  }
  return { values, message: formFailure(result, fallbackMessage), fieldErrors };
}
