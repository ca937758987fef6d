import { describe, expect, it } from 'vitest';
import { modulesToPreload, type ModuleGraph } from './island-modules';

const graph: ModuleGraph = {
  '_astro/SignInForm.a.js': ['_astro/form-kit.b.js', '_astro/react.c.js'],
  '_astro/form-kit.b.js': ['_astro/react.c.js'],
  '_astro/client.d.js': ['_astro/react.c.js'],
};

describe('modulesToPreload', () => {
  it('lists what the component and the renderer import, all the way down, once each', () => {
    expect(modulesToPreload(['/_astro/SignInForm.a.js', '/_astro/client.d.js'], graph)).toEqual([
      '/_astro/form-kit.b.js',
      '/_astro/react.c.js',
    ]);
  });

  it('leaves out the modules the browser asks for itself', () => {
    expect(modulesToPreload(['/_astro/form-kit.b.js', '/_astro/react.c.js'], graph)).toEqual([]);
  });

  it('keeps the site’s base path or assets prefix in the addresses it lists', () => {
    expect(modulesToPreload(['https://cdn.example/portal/_astro/client.d.js'], graph)).toEqual([
      'https://cdn.example/portal/_astro/react.c.js',
    ]);
  });

  it('lists nothing for a module the build did not make, or without a build', () => {
    expect(modulesToPreload(['/src/islands/SignInForm/SignInForm.tsx'], graph)).toEqual([]);
    expect(modulesToPreload(['/_astro/SignInForm.a.js'], {})).toEqual([]);
    // A file whose name merely ends like a chunk's is another file.
    expect(modulesToPreload(['/_astro/MySignInForm.a.js'], graph)).toEqual([]);
  });
});
