/**
 * A form posted without JavaScript whose action failed, as the page shows it again: what was
 * typed, the message for the whole form, and the message under each field. Plain data, so an
 * island can take it as a prop.
 */
export interface PostedForm {
  readonly values: Readonly<Record<string, string>>;
  readonly message?: string | undefined;
  readonly fieldErrors: Readonly<Record<string, string>>;
}
