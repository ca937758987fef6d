// Bundles the embedded API's worker thread (api/embedded-thread.ts and everything it imports) into
// one module, dist/api/embedded-thread.mjs, the entry scripts/start.mjs gives the thread. Loading
// the TypeScript sources instead resolves and compiles about 1,400 modules at every start, about a
// second of processor time (docs/decisions/069-api-thread-bundled.md).
import { build } from 'esbuild';

await build({
  entryPoints: ['api/embedded-thread.ts'],
  outfile: 'dist/api/embedded-thread.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // PGlite reads its WebAssembly and data files from beside its own module.
  external: ['@electric-sql/pglite'],
  // Packages written as CommonJS call `require`, which an ES module does not have of its own.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  // Names stay as written, for the log's error lines; the bundle's comments name each source file.
  keepNames: true,
  logLevel: 'warning',
});
