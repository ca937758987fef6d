import react from '@astrojs/react';
import { getViteConfig } from 'astro/config';
import { defineConfig } from 'vitest/config';
import { reactIslands } from './src/astro-adjustments/build/react-islands.mjs';
import { taggedComponents } from './src/astro-adjustments/build/tagged-components.mjs';

/**
 * Three projects: `unit` (beside the code, fast, no database), `api` (contract tests against a
 * freshly migrated database: PGlite in memory, or PostgreSQL when DATABASE_URL is set) and `astro`
 * (`*.in-astro.test.ts`: components rendered by Astro itself, with the islands' renderers and
 * tagging as astro.config.mjs has them, and nothing else of that file).
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
          exclude: ['**/*.in-astro.test.ts'],
          environment: 'node',
        },
      },
      getViteConfig(
        { test: { name: 'astro', include: ['src/**/*.in-astro.test.ts'], environment: 'node' } },
        {
          configFile: false,
          output: 'server',
          logLevel: 'error',
          integrations: [react(), reactIslands()],
          vite: { plugins: [taggedComponents()] },
        },
      ),
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
