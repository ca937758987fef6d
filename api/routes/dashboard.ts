import { Hono } from 'hono';
import { requireSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { describeDashboard } from '../services/requests/dashboard.ts';

/** The member's dashboard: /api/v1/dashboard. */
export function createDashboardRoutes(dependencies: ApiDependencies) {
  const { db } = dependencies;
  return new Hono<ApiEnv>().get('/', requireSession(dependencies), async (c) =>
    c.json(await describeDashboard(db, c.get('user').id)),
  );
}
