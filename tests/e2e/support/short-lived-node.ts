/**
 * Node's flags for a server a test starts and stops within seconds. PGlite's WebAssembly is
 * compiled by V8's baseline compiler alone: the optimizing compiler would compile its hot
 * functions again in the background, which costs about 0.8 s of CPU a start on two cores and
 * is never repaid by a server that serves a few pages (docs/decisions/068-browser-tests-cpu.md).
 */
export const shortLivedServerFlags: readonly string[] = ['--liftoff-only'];
