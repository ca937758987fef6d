import { Hono } from 'hono';
import { requireSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { isStorableText, queryParameters } from '../http/validation.ts';
import { findCategory, listCategories } from '../services/requests/request-categories.ts';
import { pageOfRequests } from '../services/requests/requests.ts';
import { listPositionQuery, pagePositionOf } from './requests.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

/**
 * What members can ask for: /api/v1/request_categories. A category's page lists the member's own
 * requests in it, paged like GET /requests.
 */
export function createRequestCategoriesRoutes(dependencies: ApiDependencies) {
  const { db } = dependencies;
  const session = requireSession(dependencies);

  return new Hono<ApiEnv>()
    .get('/', session, async (c) => c.json({ categories: await listCategories(db) }))
    .get('/:id', session, queryParameters(listPositionQuery), async (c) => {
      const id = c.req.param('id');
      // No category is named so; the database would refuse the look-up itself.
      const category = isStorableText(id) ? await findCategory(db, id) : undefined;
      if (!category) return errorResponse(c, 404, ErrorMessage.notFound);
      const page = await pageOfRequests(db, {
        userId: c.get('user').id,
        categoryId: category.id,
        position: pagePositionOf(c.req.valid('query')),
      });
      return c.json({ category, ...page });
    });
}
