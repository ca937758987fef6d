import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import {
  passkeyAlreadyAddedMessage,
  passkeyAddFallbackMessage,
  passkeyCancelledMessage,
  passkeySignInFallbackMessage,
  passkeyStepFallbackMessage,
  passkeyUnsupportedMessage,
} from '../lib/messages';
import { xsrfFieldName } from '../lib/xsrf-names';
import type { ActionFailure } from '../lib/action-failure';
import type { actions as islandActions } from './island-actions';

/**
 * The islands' actions, passed in by the island that loads this module: importing them here
 * would make this module depend on the page's, and the bundler would then add a preloading helper
 * to every page that can load it.
 */
type Actions = typeof islandActions;

/**
 * The browser's half of every passkey ceremony: ask the portal for the API's options, let the
 * browser make or use the passkey, hand its answer back. Loaded only when a member asks for a
 * passkey (a click, or focusing the email field where the browser offers its passkeys there), so no
 * page pays for WebAuthn code it does not use. It imports nothing the pages have: only the WebAuthn
 * library, bundled in.
 */

/** Where a ceremony ended: a page to go to, codes to show, a message to show, or nothing. */
export type CeremonyOutcome =
  | { readonly redirectTo: string }
  | { readonly recoveryCodes: readonly string[] }
  | { readonly error: string; readonly fieldErrors?: Readonly<Record<string, string>> }
  | { readonly quiet: true };

/** An action's result as `actions` answers it; its error has the island's shape. */
interface ActionAnswer {
  readonly data?: unknown;
  readonly error?: unknown;
}

function form(xsrfToken: string, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  data.set(xsrfFieldName, xsrfToken);
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** The portal's answer as an outcome: where to go, codes to show, or its message. */
function outcomeOf(answer: ActionAnswer, fallbackMessage: string): CeremonyOutcome {
  if (answer.error) {
    const error = answer.error as ActionFailure;
    const fieldErrors = Object.fromEntries(
      Object.entries(error.fields ?? {}).map(([name, messages]) => [name, messages[0] ?? '']),
    );
    return { error: error.message || fallbackMessage, fieldErrors };
  }
  const data = answer.data as { redirectTo?: unknown; recoveryCodes?: unknown } | undefined;
  if (Array.isArray(data?.recoveryCodes)) {
    return { recoveryCodes: data.recoveryCodes.filter((code) => typeof code === 'string') };
  }
  if (typeof data?.redirectTo === 'string') return { redirectTo: data.redirectTo };
  return { error: fallbackMessage };
}

/** The API's options in an options action's answer, as the library takes them. */
function optionsOf(answer: ActionAnswer): unknown {
  return (answer.data as { options?: unknown } | undefined)?.options;
}

/** What the browser's refusal means to the member; nothing when a newer ceremony replaced it. */
function browserFailure(error: unknown, fallbackMessage: string): CeremonyOutcome {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return { quiet: true };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return { error: passkeyAlreadyAddedMessage };
  }
  if (name === 'NotAllowedError') return { error: passkeyCancelledMessage };
  if (name === 'NotSupportedError' || typeof window.PublicKeyCredential !== 'function') {
    return { error: passkeyUnsupportedMessage };
  }
  return { error: fallbackMessage };
}

/**
 * Options are asked one at a time: a sign-in's options leave their token in a cookie, and a click
 * must not have its token replaced by the autofill request it cancels.
 */
let optionsQueue: Promise<unknown> = Promise.resolve();

function askOptions(call: () => Promise<ActionAnswer>): Promise<ActionAnswer> {
  const answer = optionsQueue.then(call, call);
  optionsQueue = answer.catch(() => undefined);
  return answer;
}

/**
 * Signs in with a passkey alone. `autofill`: the browser offers the member's passkeys among the
 * email field's suggestions and waits, silently, until one is picked (a failure there is quiet:
 * the member may be typing a password instead).
 */
export async function signInWithPasskey(
  actions: Actions,
  xsrfToken: string,
  autofill: boolean,
): Promise<CeremonyOutcome> {
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return { quiet: true };
  const asked = await askOptions(() => actions.auth.passkeyOptions(form(xsrfToken)));
  const options = optionsOf(asked) as PublicKeyCredentialRequestOptionsJSON | undefined;
  if (!options) return autofill ? { quiet: true } : outcomeOf(asked, passkeySignInFallbackMessage);
  let credential;
  try {
    credential = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
  } catch (error) {
    return autofill ? { quiet: true } : browserFailure(error, passkeySignInFallbackMessage);
  }
  const answer = await actions.auth.signInWithPasskey(
    form(xsrfToken, { credential: JSON.stringify(credential) }),
  );
  return outcomeOf(answer, passkeySignInFallbackMessage);
}

/**
 * Makes a passkey for the member's account: the browser's answer, for the island to post with the
 * page's own form (the page then shows the account as it now is), or where the ceremony ended.
 */
export async function makePasskey(
  actions: Actions,
  xsrfToken: string,
): Promise<CeremonyOutcome | { readonly credential: string }> {
  const asked = await askOptions(() => actions.account.passkeyOptions(form(xsrfToken)));
  const options = optionsOf(asked) as PublicKeyCredentialCreationOptionsJSON | undefined;
  if (!options) return outcomeOf(asked, passkeyAddFallbackMessage);
  try {
    return { credential: JSON.stringify(await startRegistration({ optionsJSON: options })) };
  } catch (error) {
    return browserFailure(error, passkeyAddFallbackMessage);
  }
}

/** Takes the MFA step with one of the member's passkeys. */
export async function verifyWithPasskey(
  actions: Actions,
  xsrfToken: string,
  rememberDevice: boolean,
): Promise<CeremonyOutcome> {
  const asked = await askOptions(() => actions.mfa.passkeyOptions(form(xsrfToken)));
  const options = optionsOf(asked) as PublicKeyCredentialRequestOptionsJSON | undefined;
  if (!options) return outcomeOf(asked, passkeyStepFallbackMessage);
  let credential;
  try {
    credential = await startAuthentication({ optionsJSON: options });
  } catch (error) {
    return browserFailure(error, passkeyStepFallbackMessage);
  }
  const answer = await actions.mfa.verifyPasskey(
    form(xsrfToken, {
      credential: JSON.stringify(credential),
      ...(rememberDevice ? { remember_device: 'yes' } : {}),
    }),
  );
  return outcomeOf(answer, passkeyStepFallbackMessage);
}

/** The ceremonies, as {@link loadPasskeyCeremonies} hands them to the islands. */
export interface PasskeyCeremonies {
  readonly signInWithPasskey: typeof signInWithPasskey;
  readonly makePasskey: typeof makePasskey;
  readonly verifyWithPasskey: typeof verifyWithPasskey;
}

declare global {
  interface Window {
    /** Set once this module has run: see load-passkey-ceremonies.ts. */
    passkeyCeremonies?: PasskeyCeremonies;
  }
}

// Vite builds this module as a worker bundle, which keeps no exports: the loader reads this.
window.passkeyCeremonies = { signInWithPasskey, makePasskey, verifyWithPasskey };
