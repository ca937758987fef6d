/**
 * A text field of a native form post, for re-rendering the form after a
 * failed submission (what the visitor typed stays typed). Never the password.
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
