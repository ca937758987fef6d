import ceremoniesUrl from './passkey-ceremonies.ts?worker&url';
import type { PasskeyCeremonies } from './passkey-ceremonies';

/**
 * The passkey ceremonies, fetched the first time a member asks for one.
 *
 * They are bundled on their own, the WebAuthn library inside, by Vite's worker build: a module
 * the islands imported with `import()` would bring Vite's preloading helper (0.9 KB) into every
 * page that can load it, SignIn included, whose budget has no room for it. They run on the page,
 * not in a worker (WebAuthn needs the window), and, as a worker bundle keeps no exports, hand
 * themselves over on `window`.
 */
export async function loadPasskeyCeremonies(): Promise<PasskeyCeremonies> {
  await import(/* @vite-ignore */ ceremoniesUrl);
  const ceremonies = window.passkeyCeremonies;
  if (!ceremonies) throw new Error('The passkey ceremonies did not load.');
  return ceremonies;
}
