import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secretKeptIn } from './kept-secret.ts';

describe('a secret kept in the data directory', () => {
  const folders: string[] = [];
  const newFolder = () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'secret-test-'));
    folders.push(folder);
    return folder;
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('is made once, kept with nothing else left behind, and read back by every later caller', () => {
    const folder = newFolder();
    const file = path.join(folder, 'keys', 'session-secret');

    const made = secretKeptIn(file);

    expect(made.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8')).toBe(made);
    expect(secretKeptIn(file)).toBe(made);
    expect(readdirSync(path.dirname(file))).toEqual(['session-secret']);
  });

  it('keeps the one a server sharing the folder wrote first', () => {
    const file = path.join(newFolder(), 'session-secret');
    const theirs = 'another-server-made-this-secret-first-0123456789';
    writeFileSync(file, `${theirs}\n`);

    expect(secretKeptIn(file)).toBe(theirs);
    expect(readFileSync(file, 'utf8')).toBe(`${theirs}\n`);
  });

  it.each([
    ['empty', ''],
    ['cut short', 'abc123'],
  ])('is refused, not used as a key, when the file is %s', (_state, content) => {
    const file = path.join(newFolder(), 'session-secret');
    writeFileSync(file, content);

    expect(() => secretKeptIn(file)).toThrow(/holds no usable key/);
  });
});
