import { ActionError } from 'astro:actions';

/**
 * A refusal that belongs to one field of the form, found only by the API (a password that is too
 * common, an email already registered): shown under that field and in the error summary, like
 * the form's own validation. Astro makes input errors only from the input schema, so this is an
 * action error that Astro serialises the way it serialises those (`AstroActionInputError` with
 * its issues), and the island reads it with `isInputError` like any other.
 */
export class FieldFailure extends ActionError {
  override type = 'AstroActionInputError';
  readonly issues: { code: 'custom'; path: string[]; message: string }[];
  readonly fields: Record<string, string[]>;

  constructor(field: string, message: string) {
    super({ code: 'UNPROCESSABLE_CONTENT', message });
    this.issues = [{ code: 'custom', path: [field], message }];
    this.fields = { [field]: [message] };
  }
}
