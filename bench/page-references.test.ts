import { describe, expect, it } from 'vitest';
import {
  importsOf,
  inlineScriptsOf,
  modulesFoundLate,
  scriptReferencesOf,
  staticImportsOf,
  stylesheetAssetsOf,
  stylesheetFindings,
} from './page-references.ts';

describe('importsOf', () => {
  it('finds static, side-effect and dynamic imports, relative or from the root', () => {
    const code =
      'import{t as e}from"./react.js";import"./styles.js";const m=()=>import("../lazy.js");' +
      "import x from '/_astro/root.mjs';";
    expect(importsOf(code)).toEqual([
      './react.js',
      './styles.js',
      '../lazy.js',
      '/_astro/root.mjs',
    ]);
  });

  it('ignores bare package names and words that only look like imports', () => {
    expect(importsOf('import"react";const important="./not-a-module";')).toEqual([]);
  });
});

describe('stylesheetAssetsOf', () => {
  it('finds fonts, images and imported stylesheets, not data URLs', () => {
    const css =
      '@import "./more.css";@font-face{src:url(/fonts/a.woff2)}' +
      '.x{background:url("data:image/svg+xml,<svg/>")}.y{mask:url(\'./m.svg\')}';
    expect(stylesheetAssetsOf(css)).toEqual(['./more.css', '/fonts/a.woff2', './m.svg']);
  });
});

describe('scriptReferencesOf', () => {
  it('finds script elements, island modules and module preloads, in the order written', () => {
    const html =
      '<script type="module" src="/_astro/loader.js"></script>' +
      '<astro-island data-preload="/_astro/kit.js /_astro/icon.js" component-url="/_astro/Form.js" renderer-url="/_astro/client.js"></astro-island>' +
      '<link rel="modulepreload" href="/_astro/react.js"><link rel="stylesheet" href="/a.css">';
    expect(scriptReferencesOf(html)).toEqual([
      '/_astro/loader.js',
      '/_astro/kit.js',
      '/_astro/icon.js',
      '/_astro/Form.js',
      '/_astro/client.js',
      '/_astro/react.js',
    ]);
  });
});

describe('inlineScriptsOf', () => {
  it('gives the code of inline scripts and leaves out external and empty ones', () => {
    const html =
      '<script>reloadOnce()</script><script type="module" src="/_astro/x.js"></script>' +
      '<script type="module">import("/_astro/y.js")</script><script> </script>';
    expect(inlineScriptsOf(html)).toEqual(['reloadOnce()', 'import("/_astro/y.js")']);
  });
});

describe('stylesheetFindings', () => {
  it('names the stylesheets a page must fetch before it paints', () => {
    const html =
      '<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/_astro/a.css">' +
      '<style>.x{color:red}</style>';
    expect(stylesheetFindings(html).renderBlocking).toEqual(['/_astro/a.css']);
  });

  it('names the custom properties the inline styles use but never define', () => {
    const html =
      '<style>:root{--brand:var(--teal-9);--teal-9:#0a0}</style>' +
      '<style>.x{color:var(--brand);border-color:var( --missing );outline:var(--soft, red)}</style>';
    expect(stylesheetFindings(html)).toEqual({
      renderBlocking: [],
      prefetched: [],
      undefinedCustomProperties: ['--missing'],
    });
  });

  it('counts what the linked stylesheets define and use', () => {
    const html =
      '<link rel="stylesheet" href="/_astro/member.a.css"><style>.x{color:var(--brand)}</style>';
    const linked = [':root{--brand:var(--teal-9)}.y{color:var(--gone)}'];
    expect(stylesheetFindings(html, linked).undefinedCustomProperties).toEqual([
      '--gone',
      '--teal-9',
    ]);
  });

  it('names the stylesheets a page fetches ahead, and not other files it fetches ahead', () => {
    const html =
      '<link rel="prefetch" href="/_astro/member.a.css" as="style">' +
      '<link rel="prefetch" href="/_astro/next.js" as="script"><style>.x{}</style>';
    expect(stylesheetFindings(html)).toMatchObject({
      renderBlocking: [],
      prefetched: ['/_astro/member.a.css'],
    });
  });
});

describe('staticImportsOf', () => {
  it('lists the modules a script needs to run, and not those it loads later', () => {
    const code =
      'import{a}from"./form-kit.b.js";import"./side-effect.js";' +
      'const later=()=>import(`./session-replay.c.js`);export{a};';
    expect(staticImportsOf(code)).toEqual(['./form-kit.b.js', './side-effect.js']);
  });
});

describe('modulesFoundLate', () => {
  const origin = 'http://127.0.0.1:4399';
  const imports: Record<string, string[]> = {
    '/_astro/SignInForm.a.js': ['/_astro/form-kit.b.js', '/_astro/react.c.js'],
    '/_astro/form-kit.b.js': ['/_astro/react.c.js'],
    '/_astro/client.d.js': ['/_astro/react.c.js'],
    '/_astro/toast-area.e.js': ['/_astro/atom.f.js'],
  };
  const staticImports = (url: string) =>
    (imports[new URL(url).pathname] ?? []).map((path) => origin + path);
  const island = (preload?: string) =>
    '<astro-island uid="x" ' +
    (preload === undefined ? '' : `data-preload="${preload}" `) +
    'component-url="/_astro/SignInForm.a.js" renderer-url="/_astro/client.d.js" client="paint">' +
    '</astro-island>';

  it('finds the modules an island would ask for only once their importer arrived', () => {
    expect(modulesFoundLate(island(), `${origin}/sign-in`, staticImports)).toEqual([
      '/_astro/form-kit.b.js',
      '/_astro/react.c.js',
    ]);
  });

  it('finds none when the island lists every module it needs', () => {
    const html = island('/_astro/form-kit.b.js /_astro/react.c.js');
    expect(modulesFoundLate(html, `${origin}/sign-in`, staticImports)).toEqual([]);
  });

  it('holds scripts started after the first paint, and the document’s own, to the same rule', () => {
    const held = (links: string) =>
      `<template data-after-first-paint>${links}` +
      '<script type="module" src="/_astro/toast-area.e.js"></script></template>';
    expect(modulesFoundLate(held(''), `${origin}/`, staticImports)).toEqual(['/_astro/atom.f.js']);
    expect(
      modulesFoundLate(
        held('<link rel="modulepreload" href="/_astro/atom.f.js">'),
        `${origin}/`,
        staticImports,
      ),
    ).toEqual([]);
    // A preload elsewhere in the document does not start with the held script.
    expect(
      modulesFoundLate(
        '<link rel="modulepreload" href="/_astro/atom.f.js">' + held(''),
        `${origin}/`,
        staticImports,
      ),
    ).toEqual(['/_astro/atom.f.js']);
    expect(
      modulesFoundLate(
        '<script type="module" src="/_astro/toast-area.e.js"></script>',
        `${origin}/`,
        staticImports,
      ),
    ).toEqual(['/_astro/atom.f.js']);
  });
});
