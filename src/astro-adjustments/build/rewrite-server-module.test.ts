import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rewriteServerModule } from './rewrite-server-module.mjs';

let serverDir: string;

function serverBuild(files: Record<string, string>): string {
  serverDir = mkdtempSync(join(tmpdir(), 'server-build-'));
  mkdirSync(join(serverDir, 'chunks'));
  for (const [name, code] of Object.entries(files)) writeFileSync(join(serverDir, name), code);
  return serverDir;
}

afterEach(() => {
  rmSync(serverDir, { recursive: true, force: true });
});

const upperCaseMarked = (code: string) =>
  code.includes('// mine') ? code.toUpperCase() : undefined;

describe('rewriteServerModule', () => {
  it('rewrites the one module that carries the marker and that the rewrite changes', async () => {
    const dir = serverBuild({
      'entry.mjs': 'export const marker = 1;',
      'chunks/a.mjs': 'const marker = 2; // mine',
      'chunks/b.mjs': 'const other = 3; // mine',
      'chunks/notes.txt': 'marker // mine',
    });
    await rewriteServerModule({
      serverDir: dir,
      marker: 'marker',
      rewrite: upperCaseMarked,
      integration: 'test',
    });
    expect(readFileSync(join(dir, 'chunks/a.mjs'), 'utf8')).toBe('CONST MARKER = 2; // MINE');
    expect(readFileSync(join(dir, 'entry.mjs'), 'utf8')).toBe('export const marker = 1;');
    expect(readFileSync(join(dir, 'chunks/b.mjs'), 'utf8')).toBe('const other = 3; // mine');
  });

  it('stops the build when no module, or more than one, was rewritten', async () => {
    const none = serverBuild({ 'entry.mjs': 'export {};' });
    await expect(
      rewriteServerModule({
        serverDir: none,
        marker: 'marker',
        rewrite: upperCaseMarked,
        integration: 'test',
      }),
    ).rejects.toThrow('test: rewrote 0 modules');
    rmSync(none, { recursive: true, force: true });

    const two = serverBuild({ 'a.mjs': 'marker // mine', 'chunks/b.mjs': 'marker // mine' });
    await expect(
      rewriteServerModule({
        serverDir: two,
        marker: 'marker',
        rewrite: upperCaseMarked,
        integration: 'test',
      }),
    ).rejects.toThrow('test: rewrote 2 modules');
  });

  it('stops the build without a server folder', async () => {
    serverBuild({});
    await expect(
      rewriteServerModule({
        serverDir: undefined,
        marker: 'x',
        rewrite: () => undefined,
        integration: 'test',
      }),
    ).rejects.toThrow('test: no server folder');
  });
});
