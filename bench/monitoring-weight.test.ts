import { describe, expect, it } from 'vitest';
import {
  monitoringBudgetCheck,
  monitoringWeight,
  type MonitoringWeight,
  type RequestedScript,
} from './monitoring-weight.ts';

const withDsn = 'http://127.0.0.1:4399';
const withoutDsn = 'http://127.0.0.1:4398';

/** A script on the server with a DSN; `imports` are file names under /_astro/. */
function script(
  name: string,
  gzipBytes: number,
  imports: string[] = [],
  afterLoad = true,
): RequestedScript {
  return {
    url: `${withDsn}/_astro/${name}`,
    gzipBytes,
    imports: imports.map((imported) => `${withDsn}/_astro/${imported}`),
    afterLoad,
  };
}

const island = script('SignInForm.a1.js', 900, ['react.b2.js'], false);
const react = script('react.b2.js', 57_000, [], false);
const loader = script('MonitoringScript.astro_astro_type_script_index_0_lang.c3.js', 1_100, [
  'browser-monitoring.d4.js',
]);
const loaderBeforeLoad = { ...loader, afterLoad: false };
const client = script('browser-monitoring.d4.js', 28_000, [
  'MonitoringScript.astro_astro_type_script_index_0_lang.c3.js',
  'session-replay.e5.js',
]);
const replay = script('session-replay.e5.js', 44_000, ['browser-monitoring.d4.js']);

const pageScripts = [island.url, loader.url];
const loadedWithoutDsn = [island, react].map((each) => each.url.replace(withDsn, withoutDsn));

const paths = (scripts: MonitoringWeight['clientScripts']) =>
  scripts.map((each) => each.path).sort();

describe('monitoringWeight', () => {
  it('counts the loader and the client, and none of the scripts the page loads without a DSN', () => {
    const weight = monitoringWeight(
      [island, react, loaderBeforeLoad, client, replay],
      pageScripts,
      loadedWithoutDsn,
    );
    expect(weight.clientGzipBytes).toBe(1_100 + 28_000);
    expect(paths(weight.clientScripts)).toEqual([
      '/_astro/MonitoringScript.astro_astro_type_script_index_0_lang.c3.js',
      '/_astro/browser-monitoring.d4.js',
    ]);
  });

  it('weighs session replay apart, with what only it imports', () => {
    const recorder = script('recorder.f6.js', 20_000);
    const replayWithRecorder = script('session-replay.e5.js', 24_000, [
      'browser-monitoring.d4.js',
      'recorder.f6.js',
    ]);
    const weight = monitoringWeight(
      [island, react, loader, client, replayWithRecorder, recorder],
      pageScripts,
      loadedWithoutDsn,
    );
    expect(weight.replayGzipBytes).toBe(24_000 + 20_000);
    expect(paths(weight.replayScripts)).toEqual([
      '/_astro/recorder.f6.js',
      '/_astro/session-replay.e5.js',
    ]);
    expect(weight.clientGzipBytes).toBe(1_100 + 28_000);
  });

  it('keeps a chunk that both the client and session replay import in the client', () => {
    const shared = script('sdk-core.g7.js', 9_000);
    const clientWithCore = script('browser-monitoring.d4.js', 19_000, [
      'session-replay.e5.js',
      'sdk-core.g7.js',
    ]);
    const replayWithCore = script('session-replay.e5.js', 44_000, ['sdk-core.g7.js']);
    const weight = monitoringWeight(
      [island, react, loader, clientWithCore, replayWithCore, shared],
      pageScripts,
      loadedWithoutDsn,
    );
    expect(paths(weight.clientScripts)).toContain('/_astro/sdk-core.g7.js');
    expect(weight.replayGzipBytes).toBe(44_000);
  });

  it('follows imports through a chunk the page loads anyway', () => {
    const helper = script('preload-helper.h8.js', 500, ['browser-monitoring.d4.js'], false);
    const weight = monitoringWeight(
      [island, react, helper, client, replay],
      [island.url, helper.url],
      [...loadedWithoutDsn, helper.url],
    );
    expect(paths(weight.clientScripts)).toEqual(['/_astro/browser-monitoring.d4.js']);
    expect(weight.replayGzipBytes).toBe(44_000);
  });

  it('counts against the budget whatever the DSN adds that session replay alone does not bring in', () => {
    const stray = script('unexplained.i9.js', 3_000);
    const weight = monitoringWeight(
      [island, react, loader, client, replay, stray],
      pageScripts,
      loadedWithoutDsn,
    );
    expect(weight.clientGzipBytes).toBe(1_100 + 28_000 + 3_000);
  });

  it('tells how much of the client the browser asked for before the load event', () => {
    const weight = monitoringWeight(
      [island, react, loaderBeforeLoad, client, replay],
      pageScripts,
      loadedWithoutDsn,
    );
    expect(weight.clientBeforeLoadGzipBytes).toBe(1_100);
    expect(weight.clientScripts.find((each) => each.path.includes('browser-monitoring'))).toEqual(
      expect.objectContaining({ afterLoad: true }),
    );
  });

  it('reports no session replay when the page never asked for it', () => {
    const weight = monitoringWeight([island, react, loader, client], pageScripts, loadedWithoutDsn);
    expect(weight.replayGzipBytes).toBe(0);
    expect(weight.replayScripts).toEqual([]);
  });

  it('refuses a page that asks for nothing more with a DSN than without one', () => {
    expect(() => monitoringWeight([island, react], pageScripts, loadedWithoutDsn)).toThrow(
      'no script',
    );
  });
});

describe('monitoringBudgetCheck', () => {
  const weighing = (clientGzipBytes: number): MonitoringWeight => ({
    clientGzipBytes,
    clientBeforeLoadGzipBytes: 0,
    clientScripts: [],
    replayGzipBytes: 44_000,
    replayScripts: [],
  });

  it('passes a client of exactly 30 KB', () => {
    expect(monitoringBudgetCheck(weighing(30 * 1024))).toMatchObject({
      budget: 30 * 1024,
      ok: true,
    });
  });

  it('fails a client one byte over 30 KB, whatever session replay weighs', () => {
    expect(monitoringBudgetCheck(weighing(30 * 1024 + 1)).ok).toBe(false);
  });
});
