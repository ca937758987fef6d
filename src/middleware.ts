import { sequence } from 'astro:middleware';
import { bodyLimit } from './server/middleware/body-limit';
import { contentEditorHost } from './server/middleware/content-editor-host';
import { contentEditorSignIn } from './server/middleware/content-editor-sign-in';
import { crossSitePosts } from './server/middleware/cross-site-posts';
import { currentUser } from './server/middleware/current-user';
import { errorLogging } from './server/middleware/error-logging';
import { memberOnlyPosts } from './server/middleware/member-only-posts';
import { formActions } from './server/middleware/form-actions';
import { requestContext } from './server/middleware/request-context';
import { resolveRoute } from './server/middleware/resolve-route';
import { routeGuards } from './server/middleware/route-guards';
import { securityHeaders } from './server/middleware/security-headers';
import { session } from './server/middleware/session';
import { unauthorized } from './server/middleware/unauthorized';
import { xsrf } from './server/middleware/xsrf';

/** One concern per middleware, in the order a request meets them. */
export const onRequest = sequence(
  requestContext,
  errorLogging,
  resolveRoute,
  crossSitePosts,
  securityHeaders,
  contentEditorHost,
  session,
  bodyLimit,
  memberOnlyPosts,
  xsrf,
  formActions,
  routeGuards,
  contentEditorSignIn,
  unauthorized,
  currentUser,
);
