import { Hono } from 'hono';
import { z } from 'zod';
import { clientAddress } from '../../platform/client-address.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { COMPANY_LOOKUPS_PER_IP } from '../services/rate-limits.ts';
import { joinableCompany } from '../services/account/companies.ts';
import { connectionForCompanySlug } from '../services/company-sign-in/connections.ts';
import { ErrorMessage } from '../../contract/error-messages.ts';

const slugParameter = z.string().trim().min(1).max(100);

/**
 * GET /api/v1/companies/{slug}: the company a sign-up link names, so that the page says at once
 * whether the link is known, and whether the company signs its people in itself. 200
 * `{"company": {"slug", "name"}, "company_sign_in": null | {"required"}}`, or 404 with the sign-up's own
 * sentence. No session: it is asked before the member exists; a rate limit per address bounds
 * guessing which companies are members.
 */
export function createCompaniesRoutes(dependencies: ApiDependencies) {
  const { db, trustedProxies } = dependencies;
  return new Hono<ApiEnv>().get(
    '/:slug',
    rateLimit(dependencies, COMPANY_LOOKUPS_PER_IP, (c) => clientAddress(c, trustedProxies)),
    async (c) => {
      const slug = slugParameter.safeParse(c.req.param('slug'));
      const company = slug.success ? await joinableCompany(db, slug.data) : null;
      if (!company) return errorResponse(c, 404, ErrorMessage.unknownCompany);
      const signIn = await connectionForCompanySlug(db, company.slug);
      return c.json({
        company,
        company_sign_in: signIn ? { required: signIn.connection.signInRequired } : null,
      });
    },
  );
}
