import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (beside the code, fast, no database) and `api`
 * (contract tests against a freshly migrated database: PGlite in memory, or
 * PostgreSQL when DATABASE_URL is set).
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'api/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
            'platform/**/*.test.ts',
            'contract/**/*.test.ts',
            'eslint/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
