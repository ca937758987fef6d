import { readFileSync } from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openDatabase } from './db/client.ts';
import { isDataFolderInUse } from './db/data-folder-lock.ts';
import { DEFAULT_PUBLIC_ORIGIN } from './index.ts';
import {
  oidcRedirectUri,
  samlServiceProvider,
} from './services/company-sign-in/connection-settings.ts';
import {
  addDomains,
  checkedIssuer,
  ConnectionAdminError,
  endMemberSessions,
  listConnections,
  removeDomains,
  setOidcConnection,
  setPolicy,
  setSamlConnection,
} from './services/company-sign-in/connection-admin.ts';
import { createConnectionSecrets } from './services/company-sign-in/connections.ts';
import { createOidcProviders } from './services/company-sign-in/oidc.ts';
import { CompanySignInRefusal } from './services/company-sign-in/refusal.ts';
import { systemClock } from '../platform/clock.ts';
import { secretKeptIn } from '../platform/kept-secret.ts';
import {
  ConfigurationError,
  originSetting,
  parseSettings,
  secretKeySetting,
} from '../platform/settings.ts';

const usage = `Usage: npm run company-sign-in -- <command> [options]

  add-oidc      --company <handle> --issuer <https address> --client-id <id> --domain <domain>...
                The client secret is read from standard input, never from the command line.
  add-saml      --company <handle> --entity-id <provider's entity id> --sso-url <https address>
                --cert-file <PEM file>... [--assertion-only-signing] --domain <domain>...
  add-domain    --company <handle> --domain <domain>...
  remove-domain --company <handle> --domain <domain>...
  policy        --company <handle> [--require | --allow-passwords]
                [--trust-two-step <amr or acr value>... | --own-two-step] [--enable | --disable]
  list          every company's sign-in, its domains and how many members it signed in
  end-sessions  --email <address>   signs a member out everywhere (someone who left)

Reads DATABASE_URL, DATA_DIR, FACTOR_SECRET_KEY and PUBLIC_ORIGIN as the servers do.`;

const settingsSchema = z.object({
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional(),
  FACTOR_SECRET_KEY: secretKeySetting,
  PUBLIC_ORIGIN: originSetting(DEFAULT_PUBLIC_ORIGIN),
});

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    company: { type: 'string' },
    issuer: { type: 'string' },
    'client-id': { type: 'string' },
    domain: { type: 'string', multiple: true },
    'entity-id': { type: 'string' },
    'sso-url': { type: 'string' },
    'cert-file': { type: 'string', multiple: true },
    'assertion-only-signing': { type: 'boolean' },
    email: { type: 'string' },
    require: { type: 'boolean' },
    'allow-passwords': { type: 'boolean' },
    'trust-two-step': { type: 'string', multiple: true },
    'own-two-step': { type: 'boolean' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConnectionAdminError(`--${name} is required.`);
  }
  return value.trim();
}

function domains(): string[] {
  if (!values.domain?.length) throw new ConnectionAdminError('Give at least one --domain.');
  return values.domain;
}

function readCertificate(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ConnectionAdminError(`Cannot read the certificate file ${file}.`);
  }
}

async function main(): Promise<void> {
  const [command] = positionals;
  if (values.help || command === undefined) {
    console.log(usage);
    return;
  }
  const settings = parseSettings(settingsSchema, process.env);
  const dataRoot = path.resolve(settings.DATA_DIR || './data');
  const secrets = createConnectionSecrets(
    settings.FACTOR_SECRET_KEY ?? secretKeptIn(path.join(dataRoot, 'factor-secret-key')),
  );
  const database = await openDatabase({
    databaseUrl: settings.DATABASE_URL || undefined,
    dataDir: path.join(dataRoot, 'pglite'),
  });
  const { db } = database;
  try {
    switch (command) {
      case 'add-oidc': {
        const input = {
          companySlug: required('company'),
          issuer: required('issuer'),
          clientId: required('client-id'),
          clientSecret: (await text(process.stdin)).trim(),
          domains: domains(),
        };
        // Asks the provider first, so that a wrong issuer is found by the operator, not a member.
        await createOidcProviders().start(
          {
            connectionId: 0,
            updatedAt: new Date(0),
            issuer: checkedIssuer(input.issuer),
            clientId: input.clientId,
            clientSecret: input.clientSecret,
          },
          oidcRedirectUri(settings.PUBLIC_ORIGIN),
          undefined,
        );
        await setOidcConnection(db, systemClock, secrets, input);
        console.log(
          `${input.companySlug} signs in with ${input.issuer}. Register this redirect address with the provider: ${oidcRedirectUri(settings.PUBLIC_ORIGIN)}`,
        );
        return;
      }
      case 'add-saml': {
        const companySlug = required('company');
        const certificates = (values['cert-file'] ?? []).map(readCertificate);
        await setSamlConnection(db, systemClock, {
          companySlug,
          idpEntityId: required('entity-id'),
          ssoUrl: required('sso-url'),
          certificates,
          assertionOnlySigning: values['assertion-only-signing'],
          domains: domains(),
        });
        const sp = samlServiceProvider(settings.PUBLIC_ORIGIN, companySlug);
        console.log(
          `${companySlug} signs in with ${required('entity-id')}. Give its administrator the portal's metadata, ${sp.entityId} (entity id ${sp.entityId}, assertion consumer ${sp.acsUrl}, HTTP-POST).`,
        );
        return;
      }
      case 'add-domain':
        await addDomains(db, systemClock, required('company'), domains());
        return;
      case 'remove-domain':
        await removeDomains(db, required('company'), domains());
        return;
      case 'policy': {
        const connection = await setPolicy(db, systemClock, required('company'), {
          signInRequired: values.require ? true : values['allow-passwords'] ? false : undefined,
          trustedTwoStepValues: values['own-two-step'] ? [] : values['trust-two-step'],
          enabled: values.enable ? true : values.disable ? false : undefined,
        });
        console.log(
          `Passwords ${connection.signInRequired ? 'refused' : 'allowed'}; provider's two-step trusted for: ${connection.trustedTwoStepValues.join(', ') || 'nothing (the portal asks its own)'}; ${connection.enabled ? 'enabled' : 'disabled'}.`,
        );
        return;
      }
      case 'list':
        console.log(JSON.stringify(await listConnections(db), null, 2));
        return;
      case 'end-sessions':
        await endMemberSessions(db, systemClock, required('email'));
        console.log(`Every session of ${required('email')} has ended.`);
        return;
      default:
        throw new ConnectionAdminError(`Unknown command "${command}".\n\n${usage}`);
    }
  } finally {
    await database.close();
  }
}

try {
  await main();
} catch (error) {
  const known =
    error instanceof ConnectionAdminError ||
    error instanceof ConfigurationError ||
    isDataFolderInUse(error);
  if (error instanceof CompanySignInRefusal) {
    console.error(`The issuer did not answer its discovery document (${error.code}).`);
  } else if (known) {
    console.error(error.message);
  } else {
    throw error;
  }
  process.exitCode = 1;
}
