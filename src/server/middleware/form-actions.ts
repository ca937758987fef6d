import { defineMiddleware } from 'astro:middleware';
import { getActionContext } from 'astro:actions';
import { redirectTarget } from '../forms/navigation';

/**
 * Native form posts (JavaScript off) follow Post/Redirect/Get: an action that
 * succeeds with a `redirectTo` answers 303 to it; an action whose session
 * ended goes to SignIn (or to the MFA step); any other result re-renders the page that posted,
 * with the result (e.g. field errors) available to its island.
 */
export const formActions = defineMiddleware(async (context, next) => {
  const actionContext = getActionContext(context);
  const { action } = actionContext;
  if (action?.calledFrom !== 'form') return next();

  const result = await action.handler();
  const { unauthorizedRedirect } = context.locals;
  if (unauthorizedRedirect) return context.redirect(unauthorizedRedirect, 303);
  const location = result.error ? undefined : redirectTarget(result.data);
  if (location) return context.redirect(location, 303);

  actionContext.setActionResult(action.name, actionContext.serializeActionResult(result));
  return withStandardReason(await next());
});

/**
 * Astro gives the page of a failed action the error's type as its reason phrase
 * (`401 AstroActionError`); the status says it in the standard words.
 */
function withStandardReason(response: Response): Response {
  if (response.statusText === '' || response.statusText === 'OK') return response;
  return new Response(response.body, { status: response.status, headers: response.headers });
}
