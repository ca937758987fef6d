/**
 * The modules an island needs beyond its own: what its component and renderer modules import
 * statically, all the way down, as the client build wrote them
 * (src/astro-adjustments/build/island-module-graph.mjs). Each island lists them in its HTML, and
 * its directive fetches them all at once when it starts to hydrate
 * (src/hydration/preload-island-modules.ts), instead of one round trip per level. Scripts held
 * until the first paint list theirs the same way (src/components/AfterFirstPaint.astro).
 */

/** The attribute of an island element that lists the modules to fetch with it. */
export const preloadAttribute = 'data-preload';

/** For each client chunk (`_astro/name.hash.js`), every chunk it imports, all the way down. */
export type ModuleGraph = Readonly<Record<string, readonly string[]>>;

// The build writes the graph over this placeholder
// (src/astro-adjustments/build/island-module-graph.mjs); a server run without a build (`astro dev`,
// whose modules are not chunked) keeps it, and lists nothing.
const builtGraph: string = '__ISLAND_MODULE_GRAPH__';

const graphOfThisBuild: ModuleGraph = builtGraph.startsWith('{')
  ? (JSON.parse(builtGraph) as ModuleGraph)
  : {};

/**
 * The addresses of the modules that `ownModules` (an island's component and renderer, or a
 * script's, as the page names them) import, all the way down, without those: the browser asks
 * for them itself. A module the graph does not know imports nothing.
 */
export function modulesToPreload(
  ownModules: readonly string[],
  graph: ModuleGraph = graphOfThisBuild,
): readonly string[] {
  if (graph !== graphOfThisBuild) return findModulesToPreload(ownModules, graph);
  // The same for every render of an island or held script: worked out once for each.
  const key = ownModules.join(' ');
  let found = preloadsOfThisBuild.get(key);
  if (found === undefined) {
    found = findModulesToPreload(ownModules, graph);
    preloadsOfThisBuild.set(key, found);
  }
  return found;
}

const preloadsOfThisBuild = new Map<string, readonly string[]>();

function findModulesToPreload(ownModules: readonly string[], graph: ModuleGraph): string[] {
  const own = new Set(ownModules);
  const found = new Set<string>();
  for (const address of ownModules) {
    const chunk = Object.keys(graph).find((fileName) => address.endsWith(`/${fileName}`));
    if (chunk === undefined) continue;
    // The page's address of a chunk is its file name behind the site's base (or assets prefix).
    const prefix = address.slice(0, address.length - chunk.length);
    for (const needed of graph[chunk] ?? []) {
      const neededAddress = prefix + needed;
      if (!own.has(neededAddress)) found.add(neededAddress);
    }
  }
  return [...found];
}
