import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit only generates SQL migrations from the schema (`npm run db:generate`); the
 * application applies the committed files itself at start-up (see api/db/client.ts), so no
 * database credentials belong here.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './api/db/schema/index.ts',
  out: './api/db/migrations',
  strict: true,
  verbose: true,
});
