import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import {
  startOidcIdentityProvider,
  type OidcAccount,
  type OidcIdentityProvider,
} from '../../../scripts/identity-providers/oidc-identity-provider';
import {
  startSamlIdentityProvider,
  type SamlIdentityProvider,
} from '../../../scripts/identity-providers/saml-identity-provider';
import {
  dataTemplateVariable,
  freePort,
  startPortalServer,
  type PortalServer,
} from './portal-server';

/** The portal's registration at the test's provider. */
const client = {
  clientId: 'member-portal',
  clientSecret: 'the-e2e-client-secret-of-32-characters',
};

/** The addresses each seeded company claims (api/demo/seed.ts's companies, by their handle). */
export const companyDomains = { acme: 'acme-health.test', northwind: 'northwind.test' } as const;

/**
 * A production server whose seeded companies sign their people in with real providers on
 * loopback, set up as an operator does: `npm run company-sign-in` on the server's data before it
 * starts. Acme Health signs in with OpenID Connect and lets its people keep passwords; Northwind
 * Secure signs in with SAML and requires its own sign-in.
 */
export interface PortalWithCompanySignIn {
  readonly server: PortalServer;
  readonly provider: OidcIdentityProvider;
  readonly samlProvider: SamlIdentityProvider;
  /** A new person of the company, known to its provider only (Northwind's: by SAML). */
  employee(company: keyof typeof companyDomains, givenName?: string): OidcAccount;
  stop(): Promise<void>;
}

/** `npm run company-sign-in -- <arguments>` on `dataDir`, the client secret on its input. */
async function operatorCommand(
  dataDir: string,
  baseURL: string,
  args: readonly string[],
): Promise<string> {
  const child = spawn(process.execPath, ['api/company-sign-in-admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, PUBLIC_ORIGIN: baseURL, DATABASE_URL: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(client.clientSecret);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`The operator command failed (${String(code)}): ${output}`);
  return output;
}

export async function startPortalWithCompanySignIn(
  env: Readonly<Record<string, string>> = {},
): Promise<PortalWithCompanySignIn> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${String(port)}`;
  const provider = await startOidcIdentityProvider({
    name: 'Acme Health sign-in',
    clients: [{ ...client, redirectUris: [`${baseURL}/sign-in/company/callback`] }],
  });
  const samlProvider = await startSamlIdentityProvider({ name: 'Northwind sign-in' });
  const northwindSaml = `${baseURL}/sign-in/company/saml/northwind`;
  samlProvider.addServiceProvider({
    entityId: `${northwindSaml}/metadata`,
    acsUrl: `${northwindSaml}/acs`,
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'company-sign-in-e2e-'));
  try {
    const template = process.env[dataTemplateVariable];
    if (!template) throw new Error('The data template (./data-template.ts) is missing.');
    cpSync(template, dataDir, { recursive: true });
    const said = await operatorCommand(dataDir, baseURL, [
      'add-oidc',
      '--company',
      'acme',
      '--issuer',
      provider.issuer,
      '--client-id',
      client.clientId,
      '--domain',
      companyDomains.acme,
    ]);
    if (!said.includes(`${baseURL}/sign-in/company/callback`)) {
      throw new Error(`The operator command did not name the redirect address: ${said}`);
    }
    const certificateFile = path.join(dataDir, 'northwind-idp.pem');
    writeFileSync(certificateFile, samlProvider.certificate);
    const saidSaml = await operatorCommand(dataDir, baseURL, [
      'add-saml',
      '--company',
      'northwind',
      '--entity-id',
      samlProvider.entityId,
      '--sso-url',
      samlProvider.ssoUrl,
      '--cert-file',
      certificateFile,
      '--domain',
      companyDomains.northwind,
    ]);
    if (!saidSaml.includes(`${northwindSaml}/acs`)) {
      throw new Error(`The operator command did not name the assertion consumer: ${saidSaml}`);
    }
    await operatorCommand(dataDir, baseURL, ['policy', '--company', 'northwind', '--require']);
    const server = await startPortalServer({ port, dataDir, env });
    return {
      server,
      provider,
      samlProvider,
      employee(company, givenName = 'Jordan') {
        const id = randomUUID().slice(0, 8);
        const account = {
          email: `${givenName.toLowerCase()}-${id}@${companyDomains[company]}`,
          password: `provider-password-${id}`,
          subject: `employee-${id}`,
          givenName,
          familyName: 'Rivera',
        };
        if (company === 'northwind') samlProvider.addAccount(account);
        else provider.addAccount(account);
        return account;
      },
      async stop() {
        await server.stop();
        await provider.stop();
        await samlProvider.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await provider.stop();
    await samlProvider.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
