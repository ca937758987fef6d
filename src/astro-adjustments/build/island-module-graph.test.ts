import { describe, expect, it } from 'vitest';
import {
  graphPlaceholder,
  staticImportClosures,
  withIslandModuleGraph,
} from './island-module-graph.mjs';

describe('staticImportClosures', () => {
  const chunks = [
    { fileName: '_astro/SignInForm.a.js', imports: ['_astro/form-kit.b.js', '_astro/react.c.js'] },
    { fileName: '_astro/form-kit.b.js', imports: ['_astro/react.c.js'] },
    { fileName: '_astro/NoteForm.d.js', imports: ['_astro/FileUploader.e.js'] },
    { fileName: '_astro/FileUploader.e.js', imports: ['_astro/Message.f.js', '_astro/Icon.g.js'] },
    { fileName: '_astro/Message.f.js', imports: ['_astro/Icon.g.js'] },
    { fileName: '_astro/Icon.g.js', imports: ['_astro/react.c.js'] },
    { fileName: '_astro/react.c.js', imports: [] },
  ];
  const closures = staticImportClosures(chunks);

  it('lists every chunk a chunk imports, all the way down, once each', () => {
    expect(closures['_astro/NoteForm.d.js']).toEqual([
      '_astro/FileUploader.e.js',
      '_astro/Message.f.js',
      '_astro/Icon.g.js',
      '_astro/react.c.js',
    ]);
    expect(closures['_astro/SignInForm.a.js']).toEqual([
      '_astro/form-kit.b.js',
      '_astro/react.c.js',
    ]);
  });

  it('leaves out a file that is not a chunk of the bundle, such as a dropped CSS-only chunk', () => {
    const withDroppedChunk = staticImportClosures([
      { fileName: '_astro/Dashboard.a.js', imports: ['_astro/tokens.b.js', '_astro/react.c.js'] },
      { fileName: '_astro/react.c.js', imports: [] },
    ]);
    expect(withDroppedChunk).toEqual({ '_astro/Dashboard.a.js': ['_astro/react.c.js'] });
  });

  it('leaves out chunks that import nothing, and never lists a chunk as its own import', () => {
    expect(closures).not.toHaveProperty('_astro/react.c.js');
    const cycle = staticImportClosures([
      { fileName: 'a.js', imports: ['b.js'] },
      { fileName: 'b.js', imports: ['a.js'] },
    ]);
    expect(cycle).toEqual({ 'a.js': ['b.js'], 'b.js': ['a.js'] });
  });
});

describe('withIslandModuleGraph', () => {
  const graph = { '_astro/SignInForm.a.js': ['_astro/react.c.js'] };

  it('writes the graph, as a string of JSON, where the placeholder stood', () => {
    const code = `var builtGraph = "${graphPlaceholder}";\nexport { builtGraph };`;
    const written = withIslandModuleGraph(code, graph) ?? '';
    const builtGraph = /var builtGraph = (.*);/.exec(written)?.[1] ?? '';
    expect(JSON.parse(JSON.parse(builtGraph) as string)).toEqual(graph);
    expect(written).not.toContain(graphPlaceholder);
  });

  it('finds the placeholder in any quotes, every time it appears', () => {
    const code = `a = '${graphPlaceholder}'; b = \`${graphPlaceholder}\`;`;
    expect(withIslandModuleGraph(code, graph)).not.toContain(graphPlaceholder);
  });

  it('says a module without the placeholder is none of its business', () => {
    expect(withIslandModuleGraph('export const answer = 42;', graph)).toBeUndefined();
    // Its name in a comment or inside a longer string is not the placeholder.
    expect(withIslandModuleGraph(`// "${graphPlaceholder}s"`, graph)).toBeUndefined();
  });
});
