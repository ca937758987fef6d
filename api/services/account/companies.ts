import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies } from '../../db/schema/index.ts';

/** A company members may join by its link, as a sign-up page names it. */
export interface JoinableCompany {
  readonly slug: string;
  readonly name: string;
}

/**
 * The company whose sign-up link carries `slug` (any case, spaces around ignored), or null:
 * companies without a slug cannot be joined by link and are never found here.
 */
export async function joinableCompany(
  database: Database,
  slug: string,
): Promise<JoinableCompany | null> {
  const wanted = slug.trim().toLowerCase();
  if (wanted === '') return null;
  const [company] = await database
    .select({ slug: companies.slug, name: companies.name })
    .from(companies)
    .where(eq(companies.slug, wanted))
    .limit(1);
  return company?.slug ? { slug: company.slug, name: company.name } : null;
}
