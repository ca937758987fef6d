import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import SignInForm from '../../islands/SignInForm/SignInForm';
import { islandRenderer, tagIslandRenderers } from './island-renderers';

const rendererTag = Symbol.for('astro:renderer');

describe('tagIslandRenderers', () => {
  const tagged = tagIslandRenderers();

  it('tags every island folder’s component with the islands’ renderer, which Astro reads first', () => {
    const islandFolders = readdirSync(new URL('../../islands', import.meta.url), {
      withFileTypes: true,
    }).filter((entry) => entry.isDirectory());
    for (const folder of islandFolders) {
      expect(tagged).toContain(`../../islands/${folder.name}/${folder.name}.tsx`);
    }
    expect((SignInForm as unknown as Record<symbol, unknown>)[rendererTag]).toBe(islandRenderer);
  });

  it('tags the kit gallery’s demos, and leaves modules without a component alone', () => {
    expect(tagged).toContain('../../pages/kit/_gallery/ButtonsDemo.tsx');
    expect(tagIslandRenderers({ helpers: { default: 'not a component' }, empty: {} })).toEqual([]);
  });
});
