import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  builtContentEditorFile,
  builtWithGitHubModeEditor,
  contentEditorSettingsProblem,
} from './content-editor-settings';

const gitHubApp = {
  KEYSTATIC_GITHUB_CLIENT_ID: 'Iv1.client',
  KEYSTATIC_GITHUB_CLIENT_SECRET: 'client-secret',
  KEYSTATIC_SECRET: 'k'.repeat(32),
};

describe('a server of a build with the GitHub-mode content editor', () => {
  it('starts with the settings of the editor’s GitHub App', () => {
    expect(contentEditorSettingsProblem(gitHubApp)).toBeUndefined();
  });

  it('refuses to start without one of them, naming what is missing', () => {
    expect(
      contentEditorSettingsProblem({ ...gitHubApp, KEYSTATIC_GITHUB_CLIENT_SECRET: undefined }),
    ).toBe(
      'This build has the content editor in GitHub mode (PUBLIC_KEYSTATIC_GITHUB_REPO), which ' +
        'needs KEYSTATIC_GITHUB_CLIENT_SECRET: the settings of its GitHub App (README, "On the site itself").',
    );
    expect(contentEditorSettingsProblem({})).toContain(
      'needs KEYSTATIC_GITHUB_CLIENT_ID, KEYSTATIC_GITHUB_CLIENT_SECRET, KEYSTATIC_SECRET:',
    );
  });

  it('refuses a KEYSTATIC_SECRET shorter than Keystatic takes', () => {
    expect(contentEditorSettingsProblem({ ...gitHubApp, KEYSTATIC_SECRET: 'k'.repeat(31) })).toBe(
      'KEYSTATIC_SECRET must be at least 32 characters long.',
    );
  });
});

describe('which build has the GitHub-mode editor', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const builtWith = (text: string | undefined): boolean => {
    root = mkdtempSync(path.join(tmpdir(), 'built-editor-'));
    if (text !== undefined) {
      mkdirSync(path.join(root, 'dist'));
      writeFileSync(path.join(root, builtContentEditorFile), text);
    }
    return builtWithGitHubModeEditor(root);
  };

  it('is the one whose build says so', () => {
    expect(builtWith('{"storage":"github"}\n')).toBe(true);
  });

  it('is not a build without the editor, one from before builds said, or a file unread', () => {
    expect(builtWith('{"storage":null}\n')).toBe(false);
    expect(builtWith(undefined)).toBe(false);
    expect(builtWith('not json')).toBe(false);
  });
});
