/**
 * What a V8 CPU profile (`--cpu-prof`) says of where a thread's time went: its self time by where
 * the code comes from (a package, a built chunk, a Node module, the runtime's own work), as shares
 * of the profile's whole time, idle included.
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface TimeShare {
  readonly source: string;
  readonly ms: number;
  readonly share: number;
}

/**
 * Where a frame's code comes from: `idle`, `garbage collector`, `program` (the runtime), a native
 * call by its name, `wasm`, a package (`react-dom`, `@electric-sql/pglite`), a Node module
 * (`node:zlib`), or a file of the project by its path (a built chunk without its hash).
 */
export function sourceOf(frame: ProfileNode['callFrame'], projectRoot: string): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.replace(/^\((.*)\)$/, '$1') || 'native';
  if (url.startsWith('wasm://')) return 'wasm';
  if (url.startsWith('node:')) return url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  const root = `file://${projectRoot.replace(/\/$/, '')}/`;
  const local = url.startsWith(root) ? url.slice(root.length) : url;
  return local.replace(/_[A-Za-z0-9-]{8}\.mjs$/, '.mjs');
}

/** The profile's self time by source, largest first. */
export function timeBySource(profile: CpuProfile, projectRoot: string): TimeShare[] {
  const sources = new Map(
    profile.nodes.map((node) => [node.id, sourceOf(node.callFrame, projectRoot)]),
  );
  const microseconds = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    const source = sources.get(nodeId) ?? 'unknown';
    microseconds.set(source, (microseconds.get(source) ?? 0) + delta);
  });
  return [...microseconds]
    .map(([source, us]) => ({ source, ms: us / 1000, share: total === 0 ? 0 : us / total }))
    .sort((a, b) => b.ms - a.ms);
}
