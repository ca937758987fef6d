import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { layerImports } from './layer-imports.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = '/house';
const options = [
  {
    root,
    layers: [
      { folder: 'contract/', allow: ['contract/'] },
      { folder: 'api/services/', deny: ['api/routes/'] },
      { folder: 'api/services/sign-in/', deny: ['api/routes/', 'api/services/factors/'] },
      { folder: 'src/', deny: ['api/'], except: ['src/server/api/transport.ts'], because: 'why' },
    ],
  },
];
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

describe('the layer imports rule', () => {
  tester.run('layer-imports', layerImports, {
    valid: [
      { filename: at('src/pages/a.ts'), code: "import { x } from '../lib/b.ts';", options },
      { filename: at('src/pages/a.ts'), code: "import { z } from 'zod';", options },
      {
        filename: at('src/server/api/transport.ts'),
        code: "const api = await import('../../../api/index.ts');",
        options,
      },
      { filename: at('contract/a.ts'), code: "export { b } from './b.ts';", options },
      { filename: at('tests/a.ts'), code: "import '../api/index.ts';", options },
      {
        filename: at('api/services/factors/a.ts'),
        code: "import { b } from '../sign-in/b.ts';",
        options,
      },
    ],
    invalid: [
      {
        filename: at('src/pages/a.ts'),
        code: "import { logger } from '../../api/logger.ts';",
        options,
        errors: [{ messageId: 'denied' }],
      },
      {
        filename: at('src/pages/a.ts'),
        code: "const m = await import('../../api/db/seed.ts');",
        options,
        errors: [{ messageId: 'denied' }],
      },
      {
        filename: at('contract/a.ts'),
        code: "export * from '../platform/clock.ts';",
        options,
        errors: [{ messageId: 'notAllowed' }],
      },
      {
        filename: at('api/services/sign-in/a.ts'),
        code: "import { b } from '../factors/b.ts';",
        options,
        errors: [{ messageId: 'denied' }],
      },
      {
        filename: at('api/services/sign-in/a.ts'),
        code: "import { b } from '../../routes/b.ts';",
        options,
        errors: [{ messageId: 'denied' }],
      },
    ],
  });
});
