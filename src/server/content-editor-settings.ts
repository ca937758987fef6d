import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Written by the build (src/build/content-editor.mjs) beside itself: where its content editor
 * saves, `{"storage": "github"}`, or `{"storage": null}` for a build without one.
 */
export const builtContentEditorFile = 'dist/content-editor.json';

/** The settings of the editor's GitHub App, which Keystatic reads as the server runs. */
const gitHubModeSettings = [
  'KEYSTATIC_GITHUB_CLIENT_ID',
  'KEYSTATIC_GITHUB_CLIENT_SECRET',
  'KEYSTATIC_SECRET',
] as const;

/** Keystatic derives its cookie key from this, and refuses a shorter one at the first sign-in. */
const keystaticSecretMinLength = 32;

/**
 * Whether the build in the project at `root` (the folder holding `dist/`, wherever the server
 * was started from) has the content editor in GitHub mode. A build made before the build wrote
 * its decision, or none at all, has no editor to check.
 */
export function builtWithGitHubModeEditor(root: string): boolean {
  try {
    const built: unknown = JSON.parse(
      readFileSync(path.resolve(root, builtContentEditorFile), 'utf8'),
    );
    return (
      typeof built === 'object' &&
      built !== null &&
      'storage' in built &&
      built.storage === 'github'
    );
  } catch {
    return false;
  }
}

/**
 * Why a server of a build with the GitHub-mode editor cannot serve it with `env`, in one line for
 * the person starting it, or `undefined` when it can. Without this, the editor's API would answer
 * 500 at every editor's first call (Keystatic checks its settings there, not at start-up).
 */
export function contentEditorSettingsProblem(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const missing = gitHubModeSettings.filter((name) => !env[name]);
  if (missing.length > 0) {
    return (
      `This build has the content editor in GitHub mode (PUBLIC_KEYSTATIC_GITHUB_REPO), which ` +
      `needs ${missing.join(', ')}: the settings of its GitHub App (README, "On the site itself").`
    );
  }
  if ((env['KEYSTATIC_SECRET'] ?? '').length < keystaticSecretMinLength) {
    return `KEYSTATIC_SECRET must be at least ${String(keystaticSecretMinLength)} characters long.`;
  }
  return undefined;
}
