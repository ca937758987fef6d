import type { APIRoute } from 'astro';
import { ApiError } from '../../../../../server/api/client';
import { samlMetadata } from '../../../../../server/api/company-sign-in';

/**
 * The portal's SAML metadata for a company (its entity id and assertion consumer), which the
 * company's administrator imports into their provider; it is also the portal's entity id.
 */
export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const metadata = await samlMetadata(await locals.api(), params['companySlug'] ?? '');
    return new Response(metadata, {
      headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8' },
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return new Response('Not found.', { status: 404 });
    }
    throw error;
  }
};
