import { defineMiddleware } from 'astro:middleware';
import { getActionContext } from 'astro:actions';
import { xsrfCookieName } from '../cookies';
import { sessionSecret } from '../secret';
import { xsrfFieldName, xsrfHeaderName } from '../../lib/xsrf-names';
import { submittedField } from '../submitted-field';
import { isValidXsrfSubmission } from '../xsrf';

/**
 * Every action call (native form or island) must echo the XSRF cookie, in the
 * X-XSRF-TOKEN header or the `_xsrf` field. Astro's origin check stays on in
 * front of this; this also covers JSON calls, which that check lets through.
 */
export const xsrf = defineMiddleware(async (context, next) => {
  const { action } = getActionContext(context);
  if (!action) return next();

  const submitted =
    context.request.headers.get(xsrfHeaderName) ??
    (await submittedField(context.request, xsrfFieldName));
  const cookie = context.cookies.get(xsrfCookieName)?.value;
  if (isValidXsrfSubmission(cookie, submitted, sessionSecret())) return next();

  const message = 'This form has expired. Please reload the page and try again.';
  return action.calledFrom === 'rpc'
    ? Response.json({ code: 'FORBIDDEN', message }, { status: 403 })
    : new Response(expiredFormPage(message, context.url.pathname), {
        status: 403,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
});

// The path comes from a URL that routed here, so it is already a plain, encoded path.
const expiredFormPage = (message: string, path: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Form expired</title></head><body><main><h1>Form expired</h1><p>${message}</p><p><a href="${path}">Reload the page</a></p></main></body></html>`;
