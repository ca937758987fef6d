/**
 * A text field of a form post (a body that is not a form gives nothing): to
 * re-render the form after a failed submission with what was typed (never the
 * password), or to read the XSRF token a form echoes.
 */
export async function submittedField(request: Request, name: string): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined;
  try {
    const value = (await request.clone().formData()).get(name);
    return typeof value === 'string' ? value.slice(0, 320) : undefined;
  } catch {
    return undefined;
  }
}
