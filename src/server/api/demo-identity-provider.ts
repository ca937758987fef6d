import { DEMO_COMPANY_SIGN_IN, demoPassword } from '../../../api/demo/demo-accounts.ts';
import type { DemoCompanySignIn } from '../../../api/demo/seed-company-sign-in.ts';
import { oidcRedirectUri } from '../../../api/services/company-sign-in/connection-settings.ts';
import { onShutdown } from '../../../platform/shutdown.ts';

/**
 * The demo company's development identity provider (scripts/identity-providers/), started beside
 * the embedded API when the settings ask for it (`demoCompanySignIn`). Its module is named at run
 * time, never imported by the server's build: the production bundle holds no identity provider,
 * and a production install (without the development dependencies) still starts.
 */
const sharedByEveryCopy = globalThis as unknown as Record<symbol, URL | undefined>;
const entryKey = Symbol.for('member-portal.demo-identity-provider-entry');

/** What scripts/identity-providers/demo-identity-provider.ts offers. */
interface DemoIdentityProviderModule {
  startDemoIdentityProvider(options: {
    companyName: string;
    employee: {
      email: string;
      password: string;
      subject: string;
      givenName: string;
      familyName: string;
    };
    redirectUri: string;
  }): Promise<DemoCompanySignIn & { stop(): Promise<void> }>;
}

/** Names the provider's module for the built server (scripts/start.mjs), whose copy of this is bundled. */
export function offerDemoIdentityProvider(entry: URL): void {
  sharedByEveryCopy[entryKey] = entry;
}

function demoIdentityProviderEntry(): URL | undefined {
  if (sharedByEveryCopy[entryKey]) return sharedByEveryCopy[entryKey];
  // `astro dev` runs this file from its source, beside the scripts.
  return import.meta.env.DEV
    ? new URL('../../../scripts/identity-providers/demo-identity-provider.ts', import.meta.url)
    : undefined;
}

/**
 * Starts the demo company's provider for this server's life, or says in one line why it cannot
 * (the development dependencies missing) and answers nothing: the rest of the demo works without it.
 */
export async function startDemoIdentityProvider(
  portalOrigin: string,
): Promise<DemoCompanySignIn | undefined> {
  const entry = demoIdentityProviderEntry();
  if (!entry) return undefined;
  let started;
  try {
    const module = (await import(/* @vite-ignore */ entry.href)) as DemoIdentityProviderModule;
    const { companyName, employee } = DEMO_COMPANY_SIGN_IN;
    started = await module.startDemoIdentityProvider({
      companyName,
      employee: { ...employee, password: demoPassword() },
      redirectUri: oidcRedirectUri(portalOrigin),
    });
  } catch (error) {
    console.warn(
      `The demo company's sign-in is off: its provider did not start (${error instanceof Error ? error.message : String(error)}). It needs the development dependencies (npm install).`,
    );
    return undefined;
  }
  onShutdown(() => started.stop());
  const { issuer, clientId, clientSecret } = started;
  return { issuer, clientId, clientSecret };
}
