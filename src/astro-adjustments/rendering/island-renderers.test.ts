import { describe, expect, it } from 'vitest';
import { islandRenderer, tagIslandRenderers } from './island-renderers';

const rendererTag = Symbol.for('astro:renderer');

describe('tagIslandRenderers', () => {
  it('tags a module’s components, default and named, with the islands’ renderer, which Astro reads first', () => {
    function SignInForm() {
      return null;
    }
    function Heading() {
      return null;
    }
    const tagged = tagIslandRenderers({
      'src/islands/SignInForm/SignInForm.tsx': { default: SignInForm },
      'src/ui/Heading/Heading.tsx': { Heading },
    });
    expect(tagged).toEqual([
      'src/islands/SignInForm/SignInForm.tsx#default',
      'src/ui/Heading/Heading.tsx#Heading',
    ]);
    for (const component of [SignInForm, Heading]) {
      expect((component as unknown as Record<symbol, unknown>)[rendererTag]).toBe(islandRenderer);
    }
  });

  it('leaves what is not a component alone, and tags a component met twice once', () => {
    const helper = () => 'not a component';
    function Chip() {
      return null;
    }
    expect(
      tagIslandRenderers({
        helpers: { default: 'not a component', formatThing: helper },
        empty: {},
        kit: { Chip },
        reexport: { Chip },
      }),
    ).toEqual(['kit#Chip', 'reexport#Chip']);
    expect(rendererTag in helper).toBe(false);
  });
});
