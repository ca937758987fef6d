import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  requestCategories,
  type CategoryIcon,
  type RequestCategory,
} from '../../db/schema/index.ts';

/** A category as every answer shows it. */
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

/**
 * The categories come with the migrations and no call changes them: read once per database, then
 * kept, so that no page pays a statement for them.
 */
const categoriesOf = new WeakMap<Database, Promise<CategoryAnswer[]>>();

/** Every category, in display order. */
export function listCategories(database: Database): Promise<CategoryAnswer[]> {
  let categories = categoriesOf.get(database);
  if (!categories) {
    categories = database
      .select()
      .from(requestCategories)
      .orderBy(asc(requestCategories.position), asc(requestCategories.id))
      .then((rows) => rows.map(describeCategory));
    categoriesOf.set(database, categories);
    // A failed read (the database away) is tried again by the next call.
    categories.catch(() => categoriesOf.delete(database));
  }
  return categories;
}

export async function findCategory(
  database: Database,
  id: string,
): Promise<CategoryAnswer | undefined> {
  return (await listCategories(database)).find((category) => category.id === id);
}
