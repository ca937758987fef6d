import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  builtContentEditorFile,
  builtEditorOrigin,
  builtWithGitHubModeEditor,
  contentEditorSettingsProblem,
} from './content-editor-settings';

const gitHubApp = {
  KEYSTATIC_GITHUB_CLIENT_ID: 'Iv1.client',
  KEYSTATIC_GITHUB_CLIENT_SECRET: 'client-secret',
  KEYSTATIC_SECRET: 'k'.repeat(32),
  PUBLIC_ORIGIN: 'https://portal.example.com',
  CONTENT_EDITOR_ORIGIN: 'https://editor.portal.example.com',
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

describe('the GitHub-mode content editor’s own host', () => {
  it('is required: the server refuses to start without it', () => {
    expect(contentEditorSettingsProblem({ ...gitHubApp, CONTENT_EDITOR_ORIGIN: undefined })).toBe(
      'This build has the content editor in GitHub mode, which is served only on a host of its ' +
        'own: set CONTENT_EDITOR_ORIGIN to its address, e.g. https://editor.portal.example.com ' +
        '(README, "On the site itself").',
    );
  });

  it('is another host name than the portal’s, whatever the port', () => {
    expect(
      contentEditorSettingsProblem({
        ...gitHubApp,
        CONTENT_EDITOR_ORIGIN: 'https://portal.example.com:8443',
      }),
    ).toBe(
      'CONTENT_EDITOR_ORIGIN must name another host than PUBLIC_ORIGIN (portal.example.com): ' +
        'browsers share cookies between the ports of one host.',
    );
  });

  it('is https when the portal is', () => {
    expect(
      contentEditorSettingsProblem({
        ...gitHubApp,
        CONTENT_EDITOR_ORIGIN: 'http://editor.portal.example.com',
      }),
    ).toBe('CONTENT_EDITOR_ORIGIN must be https, as PUBLIC_ORIGIN is.');
  });

  it('is the one the build was made for', () => {
    expect(contentEditorSettingsProblem(gitHubApp, 'https://editor.portal.example.com')).toBe(
      undefined,
    );
    expect(contentEditorSettingsProblem(gitHubApp, 'https://cms.portal.example.com')).toBe(
      'This build serves the content editor at https://cms.portal.example.com, not at ' +
        'CONTENT_EDITOR_ORIGIN (https://editor.portal.example.com): build again with the same ' +
        'CONTENT_EDITOR_ORIGIN.',
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

  it('says which address its editor is served at', () => {
    builtWith('{"storage":"github","editorOrigin":"https://editor.portal.example.com"}\n');
    expect(builtEditorOrigin(root ?? '')).toBe('https://editor.portal.example.com');
  });

  it('is not a build without the editor, one from before builds said, or a file unread', () => {
    expect(builtWith('{"storage":null}\n')).toBe(false);
    expect(builtWith(undefined)).toBe(false);
    expect(builtWith('not json')).toBe(false);
  });
});
