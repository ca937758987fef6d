/**
 * Astro finds the renderer of a component a page renders by asking each renderer whether the
 * component is its own, and React's answer is to render the component once, just to look. So every
 * module whose components a page may render (an island's folder, the kit, the kit gallery's demos)
 * tags its own exports with the islands' renderer as it loads, on the server
 * (src/astro-adjustments/rendering/island-renderers.ts). Each module does it for itself because a
 * module that imported them all to tag them would put every island's styles on every signed-in
 * page: Astro inlines the styles of every module a page's imports reach.
 */
import { fileURLToPath } from 'node:url';

/** The modules whose exports are components a page may render, by their path under `src/`. */
const componentModule =
  /[\\/]src[\\/](?:islands[\\/][^\\/]+|ui[\\/][^\\/]+|pages[\\/]kit[\\/]_gallery)[\\/][^\\/]+\.tsx$/;

const tagger = fileURLToPath(new URL('../rendering/island-renderers.ts', import.meta.url));

/**
 * Whether the module at `id` is one whose components are tagged (not a test).
 *
 * @param {string} id
 */
export function isComponentModule(id) {
  const file = id.split('?')[0] ?? id;
  return componentModule.test(file) && !file.endsWith('.test.tsx');
}

/**
 * The module's code with, after it, the tagging of its own exports: it imports itself (a module's
 * namespace is complete once its body has run) and hands its exports to the tagger.
 *
 * @param {string} code
 * @param {string} id
 * @returns {string}
 */
export function withTaggedComponents(code, id) {
  const file = id.split('?')[0] ?? id;
  // Named in the tagger's list by its path in the project, not on the machine that built it.
  const name = file.slice(file.replaceAll('\\', '/').lastIndexOf('/src/') + 1);
  return `${code}
import { tagIslandRenderers as __tagIslandRenderers } from ${JSON.stringify(tagger)};
import * as __componentModule from ${JSON.stringify(file)};
__tagIslandRenderers({ ${JSON.stringify(name)}: __componentModule });
`;
}

/**
 * On the server only: a browser never asks which renderer a component is, and the tagger would
 * cost every island's script its bytes.
 *
 * @returns {import('vite').Plugin}
 */
export function taggedComponents() {
  return {
    name: 'tagged-components',
    enforce: 'post',
    transform(code, id, options) {
      const onServer = options?.ssr ?? this.environment?.config.consumer === 'server';
      if (!onServer || !isComponentModule(id)) return undefined;
      return { code: withTaggedComponents(code, id), map: null };
    },
  };
}
