import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import SignInForm from '../../islands/SignInForm/SignInForm';
import { Chip } from '../../ui/Chip/Chip';
import { Heading } from '../../ui/Heading/Heading';
import { islandRenderer, tagIslandRenderers } from './island-renderers';

const rendererTag = Symbol.for('astro:renderer');

describe('tagIslandRenderers', () => {
  const tagged = tagIslandRenderers();

  it('tags every island folder’s component with the islands’ renderer, which Astro reads first', () => {
    const islandFolders = readdirSync(new URL('../../islands', import.meta.url), {
      withFileTypes: true,
    }).filter((entry) => entry.isDirectory());
    for (const folder of islandFolders) {
      expect(tagged).toContain(`../../islands/${folder.name}/${folder.name}.tsx#default`);
    }
    expect((SignInForm as unknown as Record<symbol, unknown>)[rendererTag]).toBe(islandRenderer);
  });

  it('tags the kit’s components, which pages render without hydrating, by their named exports', () => {
    expect(tagged).toContain('../../ui/Heading/Heading.tsx#Heading');
    for (const component of [Heading, Chip]) {
      expect((component as unknown as Record<symbol, unknown>)[rendererTag]).toBe(islandRenderer);
    }
  });

  it('tags the kit gallery’s demos, and leaves what is not a component alone', () => {
    expect(tagged).toContain('../../pages/kit/_gallery/ButtonsDemo.tsx#default');
    const helper = () => 'not a component';
    expect(
      tagIslandRenderers({
        helpers: { default: 'not a component', formatThing: helper },
        empty: {},
      }),
    ).toEqual([]);
    expect(rendererTag in helper).toBe(false);
  });
});
