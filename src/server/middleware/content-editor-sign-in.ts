import { defineMiddleware } from 'astro:middleware';
import { config } from '../config';
import {
  isSignInCallback,
  isThisBrowsersSignIn,
  newSignInState,
  signInCallbackPath,
  signInStateCookie,
  signInStateMaxAgeSeconds,
  withSignInState,
} from '../content-editor-sign-in';
import { refusal } from '../http/refusal';

/**
 * OAuth's `state` around Keystatic's GitHub sign-in (src/server/content-editor-sign-in.ts): given
 * to every answer of the editor's API that sends the browser to GitHub's sign-in, and required by
 * the callback before Keystatic sees it.
 */
export const contentEditorSignIn = defineMiddleware(async (context, next) => {
  const { route } = context.locals;
  if (
    import.meta.env.CONTENT_EDITOR !== 'github' ||
    route.kind !== 'page' ||
    route.route.name !== 'ContentEditorApi'
  ) {
    return next();
  }
  const cookieOptions = {
    path: signInCallbackPath,
    httpOnly: true,
    sameSite: 'lax',
    secure:
      context.url.protocol === 'https:' ||
      (config().contentEditorOrigin?.startsWith('https:') ?? false),
  } as const;
  if (isSignInCallback(context.url.pathname)) {
    const keptState = context.cookies.get(signInStateCookie)?.value;
    // One sign-in, one callback: whatever the outcome, the state is spent.
    context.cookies.delete(signInStateCookie, cookieOptions);
    if (!isThisBrowsersSignIn(context.url.searchParams.get('state'), keptState)) {
      return refusal(400, {
        title: 'Sign in again',
        message:
          'This GitHub sign-in did not start from this browser’s editor, or took longer than ' +
          'ten minutes, so it was not accepted. Open the editor and sign in with GitHub again.',
        scripted: false,
        retryPath: '/keystatic',
      });
    }
    return next();
  }
  const answer = await next();
  const state = newSignInState();
  const toGitHub = withSignInState(answer, state);
  if (!toGitHub) return answer;
  context.cookies.set(signInStateCookie, state, {
    ...cookieOptions,
    maxAge: signInStateMaxAgeSeconds,
  });
  return toGitHub;
});
