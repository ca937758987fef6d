import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerImports } from './eslint/layer-imports.js';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      '.astro/',
      'reports/',
      'test-results/',
      'playwright-report/',
      'api/db/migrations/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  {
    // The password dictionaries (megabytes, docs/decisions/046-passwords-by-zxcvbn.md) stay on the
    // server: what the browser runs never imports them, nor the API's password checks.
    files: ['src/islands/**', 'src/ui/**', 'src/hydration/**', 'src/stores/**', 'src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@zxcvbn-ts/*', '**/api/services/password*'],
              message: 'Password checks run in the API only (api/services/sign-in/passwords.ts).',
            },
          ],
        },
      ],
    },
  },
  astro.configs.recommended,
  {
    // One line between the portal and the API: the portal talks to any server that speaks the
    // contract, and reaches into api/ only where it embeds the reference API.
    plugins: { house: { rules: { 'layer-imports': layerImports } } },
    rules: {
      'house/layer-imports': [
        'error',
        {
          root: import.meta.dirname,
          layers: [
            { folder: 'contract/', allow: ['contract/'] },
            { folder: 'platform/', allow: ['platform/', 'contract/'] },
            { folder: 'api/', deny: ['src/'] },
            {
              folder: 'api/services/',
              deny: ['src/', 'api/http/', 'api/routes/'],
              because: 'services know nothing of HTTP; routes call them',
            },
            {
              folder: 'api/services/factors/',
              deny: [
                'src/',
                'api/http/',
                'api/routes/',
                'api/services/account/',
                'api/services/company-sign-in/',
              ],
              because: 'services know nothing of HTTP, and the account builds on the factors',
            },
            {
              folder: 'api/services/account/',
              deny: ['src/', 'api/http/', 'api/routes/', 'api/services/company-sign-in/'],
              because: 'services know nothing of HTTP, and company sign-in builds on the account',
            },
            {
              folder: 'api/services/sign-in/',
              deny: [
                'src/',
                'api/http/',
                'api/routes/',
                'api/services/factors/',
                'api/services/account/',
                'api/services/company-sign-in/',
              ],
              because:
                'services know nothing of HTTP, and the factors and the account build on sign-in',
            },
            {
              folder: 'api/services/audit/',
              allow: ['api/services/audit/', 'api/db/', 'platform/', 'contract/'],
            },
            {
              folder: 'api/db/',
              deny: ['src/', 'api/services/', 'api/http/', 'api/routes/', 'api/demo/'],
              because:
                'the services and the demo data build on the schema, not the other way round',
            },
            {
              folder: 'src/',
              deny: ['api/'],
              except: ['src/server/api/transport.ts', 'src/server/api/demo-identity-provider.ts'],
              because: 'the portal talks to the API through its client (src/server/api/)',
            },
            {
              folder: 'scripts/',
              deny: ['api/'],
              except: ['scripts/start.mjs'],
              because: 'only the server entry point starts the embedded API',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.astro', '**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
