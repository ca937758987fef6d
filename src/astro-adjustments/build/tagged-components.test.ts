import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isComponentModule, taggedComponents, withTaggedComponents } from './tagged-components.mjs';

const rendererTag = Symbol.for('astro:renderer');
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('isComponentModule', () => {
  it('takes the modules of island folders, the kit and the gallery, and no test', () => {
    expect(isComponentModule(`${root}src/islands/SignInForm/SignInForm.tsx`)).toBe(true);
    expect(isComponentModule(`${root}src/ui/Heading/Heading.tsx?v=1`)).toBe(true);
    expect(isComponentModule(`${root}src/pages/kit/_gallery/ButtonsDemo.tsx`)).toBe(true);
    expect(isComponentModule(`${root}src/ui/Heading/Heading.test.tsx`)).toBe(false);
    expect(isComponentModule(`${root}src/islands/use-form-action.ts`)).toBe(false);
    expect(isComponentModule(`${root}src/astro-adjustments/rendering/island-renderers.ts`)).toBe(
      false,
    );
  });
});

describe('withTaggedComponents', () => {
  it('hands the module’s own exports to the tagger under its path in the project', () => {
    const id = `${root}src/ui/Heading/Heading.tsx`;
    const code = withTaggedComponents('export function Heading() {}', id);
    expect(code).toContain(`import * as __componentModule from ${JSON.stringify(id)};`);
    expect(code).toContain(
      '__tagIslandRenderers({ "src/ui/Heading/Heading.tsx": __componentModule });',
    );
  });
});

describe('taggedComponents, in a Vite server', () => {
  let server: ViteDevServer;

  beforeAll(async () => {
    server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false },
      plugins: [taggedComponents()],
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('tags every island folder’s component and the kit’s as the server loads them', async () => {
    const islandFolders = readdirSync(new URL('../../islands', import.meta.url), {
      withFileTypes: true,
    }).filter((entry) => entry.isDirectory());
    for (const folder of islandFolders) {
      const island = await server.ssrLoadModule(`/src/islands/${folder.name}/${folder.name}.tsx`);
      expect((island.default as Record<symbol, unknown>)[rendererTag]).toBe('react-islands');
    }
    const kit = await server.ssrLoadModule('/src/ui/Heading/Heading.tsx');
    expect((kit.Heading as Record<symbol, unknown>)[rendererTag]).toBe('react-islands');
  });

  it('leaves the browser’s copy alone: no tagger in an island’s script', async () => {
    const transformed = await server.transformRequest('/src/ui/Heading/Heading.tsx');
    expect(transformed?.code).not.toContain('tagIslandRenderers');
  });
});
