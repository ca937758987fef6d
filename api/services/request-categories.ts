import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { requestCategories, type CategoryIcon, type RequestCategory } from '../db/schema.ts';

/** A category as every answer shows it (docs/PRODUCT.md §7.2.1). */
export interface CategoryAnswer {
  id: string;
  name: string;
  description: string;
  icon: CategoryIcon;
}

export function describeCategory(category: RequestCategory): CategoryAnswer {
  return {
    id: category.id,
    name: category.name,
    description: category.description,
    icon: category.icon,
  };
}

/** Every category, in display order. */
export async function listCategories(database: Database): Promise<CategoryAnswer[]> {
  const rows = await database
    .select()
    .from(requestCategories)
    .orderBy(asc(requestCategories.position), asc(requestCategories.id));
  return rows.map(describeCategory);
}

export async function findCategory(
  database: Database,
  id: string,
): Promise<CategoryAnswer | undefined> {
  const [row] = await database.select().from(requestCategories).where(eq(requestCategories.id, id));
  return row && describeCategory(row);
}
