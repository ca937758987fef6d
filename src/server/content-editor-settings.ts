import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Written by the build (src/build/content-editor.mjs) beside itself: where its content editor
 * saves and, in GitHub mode, the editor's own address, `{"storage": "github", "editorOrigin":
 * "https://editor.portal.example.com"}`, or `{"storage": null}` for a build without one.
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
  return builtEditor(root)?.storage === 'github';
}

/** The address a GitHub-mode build was made to serve its editor at, if it says. */
export function builtEditorOrigin(root: string): string | undefined {
  const origin = builtEditor(root)?.editorOrigin;
  return typeof origin === 'string' ? origin : undefined;
}

function builtEditor(root: string): { storage?: unknown; editorOrigin?: unknown } | undefined {
  try {
    const built: unknown = JSON.parse(
      readFileSync(path.resolve(root, builtContentEditorFile), 'utf8'),
    );
    return typeof built === 'object' && built !== null ? built : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a server of a build with the GitHub-mode editor cannot serve it with `env`, in one line for
 * the person starting it, or `undefined` when it can. Without this, the editor's API would answer
 * 500 at every editor's first call (Keystatic checks its settings there, not at start-up).
 */
export function contentEditorSettingsProblem(
  env: Readonly<Record<string, string | undefined>>,
  builtOrigin?: string,
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
  return editorOriginProblem(env['CONTENT_EDITOR_ORIGIN'], env['PUBLIC_ORIGIN'], builtOrigin);
}

/**
 * The editor keeps a GitHub token that scripts can read in a cookie for its whole host, so it needs
 * a host name no member page is served on: cookies tell hosts apart by name, never by port.
 */
function editorOriginProblem(
  editorOrigin: string | undefined,
  publicOrigin: string | undefined,
  builtOrigin: string | undefined,
): string | undefined {
  if (!editorOrigin) {
    return (
      'This build has the content editor in GitHub mode, which is served only on a host of its ' +
      'own: set CONTENT_EDITOR_ORIGIN to its address, e.g. https://editor.portal.example.com ' +
      '(README, "On the site itself").'
    );
  }
  if (!URL.canParse(editorOrigin)) {
    return `CONTENT_EDITOR_ORIGIN must be an http or https origin, not "${editorOrigin}".`;
  }
  const editor = new URL(editorOrigin);
  if (builtOrigin !== undefined && editor.origin !== builtOrigin) {
    return (
      `This build serves the content editor at ${builtOrigin}, not at CONTENT_EDITOR_ORIGIN ` +
      `(${editor.origin}): build again with the same CONTENT_EDITOR_ORIGIN.`
    );
  }
  const site = publicOrigin ? new URL(publicOrigin) : undefined;
  if (site?.hostname === editor.hostname) {
    return (
      `CONTENT_EDITOR_ORIGIN must name another host than PUBLIC_ORIGIN (${site.hostname}): ` +
      'browsers share cookies between the ports of one host.'
    );
  }
  if (site?.protocol === 'https:' && editor.protocol !== 'https:') {
    return 'CONTENT_EDITOR_ORIGIN must be https, as PUBLIC_ORIGIN is.';
  }
  return undefined;
}
