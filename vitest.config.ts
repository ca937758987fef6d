import react from '@astrojs/react';
import { getViteConfig } from 'astro/config';
import { defineConfig } from 'vitest/config';
import { reactIslands } from './src/astro-adjustments/build/react-islands.mjs';
import { taggedComponents } from './src/astro-adjustments/build/tagged-components.mjs';

/**
 * Projects: `unit` (beside the code, fast, no database); `astro` (`*.in-astro.test.ts`: components
 * rendered by Astro itself, with the islands' renderers and tagging as astro.config.mjs has them,
 * and nothing else of that file); and the API contract tests, each file on a database of its own:
 * a copy of one migrated once by tests/api/database-template.ts, PGlite by default, PostgreSQL when
 * DATABASE_URL is set.
 *
 * Both cores work (vitest's default on two is one worker). The files of `unit` and `api` share
 * their worker's loaded modules (no isolation), which spares each file loading the same modules
 * again (for `api`, the API and PGlite's compilation). Files that replace a module with `vi.mock`
 * run isolated (`unit-isolated`, `api-isolated`), and the one that compares response times to
 * the millisecond runs last and alone (`api-timed`), so that no other test's work shows in its
 * timings.
 *
 * Tests tagged `database` exercise what PGlite and PostgreSQL could do differently (SQL,
 * transactions, concurrent writers, migrations and seeding): `npm test` runs those a second time,
 * on PostgreSQL. A file tags all its tests with a `@module-tag database` comment, a test or a
 * describe block with `{ tags: ['database'] }`.
 */
const filesThatMockModules = ['tests/api/attacks-hostile-strings.test.ts'];
const unitFilesThatMockModules = [
  'src/content/offers.test.ts',
  'src/islands/island-actions.test.ts',
  'src/styles/prune-unused-tokens.test.ts',
  'src/ui/FileUploader/FileUploader.test.tsx',
  'src/ui/Tabs/Tabs.test.tsx',
];
const unitTests = {
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
  // Two workers share the two cores: a test's own work may take twice its time alone.
  testTimeout: 15_000,
};
const filesThatCompareTimings = ['tests/api/attacks-enumeration.test.ts'];

const apiTests = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: 'tests/api/database-template.ts',
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    tags: [
      {
        name: 'database',
        description:
          'Exercises what PGlite and PostgreSQL could do differently: runs on both in npm test.',
      },
    ],
    projects: [
      {
        extends: true,
        test: {
          ...unitTests,
          name: 'unit',
          exclude: ['**/*.in-astro.test.ts', ...unitFilesThatMockModules],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { ...unitTests, name: 'unit-isolated', include: unitFilesThatMockModules },
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
          ...apiTests,
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          exclude: [...filesThatMockModules, ...filesThatCompareTimings],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { ...apiTests, name: 'api-isolated', include: filesThatMockModules },
      },
      {
        extends: true,
        test: {
          ...apiTests,
          name: 'api-timed',
          include: filesThatCompareTimings,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
