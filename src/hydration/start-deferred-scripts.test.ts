// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  startDeferredScripts,
  startDeferredScriptsAfterFirstPaint,
} from './start-deferred-scripts';
import { fakePaintReports } from './fake-paint-reports';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const heldScripts = () =>
  '<template data-after-first-paint>' +
  '<link rel="modulepreload" href="/_astro/atom.js">' +
  '<script type="module" src="/_astro/toast-area.js"></script>' +
  '<script type="module">window.started = true;</script>' +
  '</template>';

describe('startDeferredScripts', () => {
  it('copies every held script into the document, attributes and text included', () => {
    document.body.innerHTML = heldScripts();
    startDeferredScripts(document);
    const started = [...document.head.querySelectorAll('script')];
    expect(started.map((script) => script.getAttribute('src'))).toEqual([
      '/_astro/toast-area.js',
      null,
    ]);
    expect(started.every((script) => script.type === 'module')).toBe(true);
    expect(started[1]?.textContent).toBe('window.started = true;');
  });

  it('starts the module preloads held beside the scripts, with them', () => {
    document.body.innerHTML = heldScripts();
    startDeferredScripts(document);
    const preloads = [...document.head.querySelectorAll('link')];
    expect(preloads.map((link) => [link.rel, link.getAttribute('href')])).toEqual([
      ['modulepreload', '/_astro/atom.js'],
    ]);
  });

  it('starts each script once, however often it is called', () => {
    document.body.innerHTML = heldScripts();
    startDeferredScripts(document);
    startDeferredScripts(document);
    expect(document.head.querySelectorAll('script')).toHaveLength(2);
    expect(document.querySelector('template')).toBeNull();
  });

  it('leaves templates that hold something else alone', () => {
    document.body.innerHTML = '<template id="toast"><li>A toast</li></template>';
    startDeferredScripts(document);
    expect(document.querySelector('template#toast')).not.toBeNull();
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
  });
});

describe('startDeferredScriptsAfterFirstPaint', () => {
  it('waits until the browser reports the first paint', () => {
    vi.useFakeTimers();
    const paints = fakePaintReports();
    document.body.innerHTML = heldScripts();

    startDeferredScriptsAfterFirstPaint(document);
    expect(document.head.querySelectorAll('script')).toHaveLength(0);

    paints.report('first-contentful-paint');
    vi.runAllTimers();
    expect(document.head.querySelectorAll('script')).toHaveLength(2);
  });
});
