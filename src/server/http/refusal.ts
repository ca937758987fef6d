/**
 * An answer for a request refused before any page renders (an expired form, a body too large, a
 * sign-in that did not start here):
 * JSON in the shape of Astro's action errors for island calls, a small page of its own for
 * everything else, so the visitor reads what happened and how to go on.
 */
export function refusal(
  status: 400 | 403 | 413,
  { title, message, scripted, retryPath }: Refusal,
): Response {
  if (scripted) {
    const code = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 413: 'CONTENT_TOO_LARGE' }[status];
    return Response.json({ code, message }, { status });
  }
  const again = retryPath ? `<p><a href="${retryPath}">Go back to the page</a></p>` : '';
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${message}</p>${again}</main></body></html>`,
    {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    },
  );
}

interface Refusal {
  readonly title: string;
  readonly message: string;
  /** The caller is a script (an island's action call), not a browser showing the answer. */
  readonly scripted: boolean;
  /**
   * Where to try again; it must come from a URL that routed here, so it is already a plain,
   * encoded path.
   */
  readonly retryPath?: string | undefined;
}
