/**
 * What every client chunk needs before it can run: the chunks it imports statically, and theirs,
 * all the way down. An island's modules are otherwise found one after the other, each only once the
 * one importing it has arrived (the island, then the form kit and React: a round trip each). The
 * server learns this graph from the build and lists, on each island, the modules to fetch at once
 * when it starts to hydrate (src/astro-adjustments/rendering/island-modules.ts).
 *
 * The client is built after the server, so the graph cannot be imported by server code: the server
 * module carries a placeholder, and this integration writes the graph in its place once the build
 * is done. The build stops unless exactly one server module carries the placeholder.
 */
import { fileURLToPath } from 'node:url';
import { rewriteServerModule } from './rewrite-server-module.mjs';

/** The text that stands for the graph in the server's code until the build writes it there. */
export const graphPlaceholder = '__ISLAND_MODULE_GRAPH__';

const placeholderLiteral = new RegExp(`(["'\`])${graphPlaceholder}\\1`, 'g');

/**
 * @typedef {{ readonly fileName: string, readonly imports: readonly string[] }} ClientChunk
 *   A chunk of the client build: its file, and the files it imports statically.
 */

/**
 * For each chunk, every chunk it needs before it runs: its static imports and theirs, in the
 * order they are first met, itself left out. Dynamic imports are left out: they load later, on
 * purpose (a lazy screen, the monitoring client). So is an import of a file that is not among
 * `chunks`: Vite drops the chunks that carried only CSS, and a listed file that is not served
 * would fail the page's load.
 *
 * @param {readonly ClientChunk[]} chunks
 * @returns {Record<string, string[]>}
 */
export function staticImportClosures(chunks) {
  const importsOf = new Map(chunks.map((chunk) => [chunk.fileName, chunk.imports]));
  const isChunk = (/** @type {string} */ fileName) => importsOf.has(fileName);
  /** @type {Record<string, string[]>} */
  const closures = {};
  for (const { fileName } of chunks) {
    const needed = new Set();
    const pending = [...(importsOf.get(fileName) ?? [])];
    while (pending.length > 0) {
      const next = /** @type {string} */ (pending.shift());
      if (next === fileName || needed.has(next) || !isChunk(next)) continue;
      needed.add(next);
      pending.push(...(importsOf.get(next) ?? []));
    }
    if (needed.size > 0) closures[fileName] = [...needed];
  }
  return closures;
}

/**
 * The server module with the graph written in place of its placeholder, or `undefined` when the
 * module does not carry it.
 *
 * @param {string} code
 * @param {Readonly<Record<string, readonly string[]>>} graph
 * @returns {string | undefined}
 */
export function withIslandModuleGraph(code, graph) {
  if (code.search(placeholderLiteral) === -1) return undefined;
  // A string literal holding the JSON: the server parses it once, when it starts.
  return code.replace(placeholderLiteral, () => JSON.stringify(JSON.stringify(graph)));
}

/** @returns {import('astro').AstroIntegration} */
export function islandModuleGraph() {
  /** @type {string | undefined} */
  let serverDir;
  /** @type {Record<string, string[]> | undefined} */
  let graph;
  return {
    name: 'island-module-graph',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'island-module-graph:client-chunks',
                applyToEnvironment: (environment) => environment.name === 'client',
                // Once written: Vite drops the chunks that only carried CSS late in generating
                // the bundle.
                writeBundle(_options, bundle) {
                  graph = staticImportClosures(
                    Object.values(bundle).flatMap((output) =>
                      output.type === 'chunk'
                        ? [{ fileName: output.fileName, imports: output.imports }]
                        : [],
                    ),
                  );
                },
              },
            ],
          },
        });
      },
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async () => {
        const built = graph;
        if (built === undefined) throw new Error('island-module-graph: no client build was seen');
        await rewriteServerModule({
          serverDir,
          marker: graphPlaceholder,
          rewrite: (code) => withIslandModuleGraph(code, built),
          integration: 'island-module-graph',
        });
      },
    },
  };
}
