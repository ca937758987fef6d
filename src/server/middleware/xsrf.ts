import { defineMiddleware } from 'astro:middleware';
import { getActionContext } from 'astro:actions';
import { xsrfFieldName, xsrfHeaderName } from '../../lib/xsrf-names';
import { xsrfCookieName } from '../session/cookies';
import { submittedField } from '../forms/form-body';
import { refusal } from '../http/refusal';
import { sessionSecret } from '../secret';
import {
  isCrossSiteCall,
  isValidXsrfSubmission,
  isWellSignedXsrfToken,
  issueXsrfCookie,
} from '../session/xsrf';

/**
 * Makes sure the browser holds an XSRF token made for its current session, and refuses (403)
 * every action call (native form or island) that comes from another site by its `Sec-Fetch-Site`
 * or `Origin` header, or that does not echo the token its cookie holds, in the X-XSRF-TOKEN
 * header or the `_xsrf` field. Astro's origin check stays on in front of this; this also covers
 * JSON calls, which that check lets through.
 */
export const xsrf = defineMiddleware(async (context, next) => {
  const { cookies, locals, request } = context;
  const secret = sessionSecret();
  const binding = locals.session.token;
  // Read before a new token is set: the check is against what the browser sent.
  const cookie = cookies.get(xsrfCookieName)?.value;
  locals.xsrfToken =
    cookie && isWellSignedXsrfToken(cookie, secret, binding)
      ? cookie
      : issueXsrfCookie(cookies, binding);

  const { action } = getActionContext(context);
  if (!action) return next();

  const submitted = isCrossSiteCall(request.headers, context.url.origin)
    ? undefined
    : (request.headers.get(xsrfHeaderName) ??
      // A form may carry a file on the pages whose route takes one (JavaScript off).
      (await submittedField(request, xsrfFieldName, locals.bodyLimit)));
  if (isValidXsrfSubmission(cookie, submitted, secret, binding)) return next();

  return refusal(403, {
    title: 'Form expired',
    message: 'This form has expired. Please reload the page and try again.',
    scripted: action.calledFrom === 'rpc',
    retryPath: context.url.pathname,
  });
});
