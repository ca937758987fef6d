import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  companies,
  companyConnections,
  companyDomains,
  type CompanyConnection,
} from '../../db/schema/index.ts';
import { createSealer, type Sealer } from '../sealing.ts';

/** A connection with its company's name, as sign-in needs it. */
export interface ConnectionOfCompany {
  readonly connection: CompanyConnection;
  readonly companyName: string;
  readonly companySlug: string | null;
}

/** The domain of an address, lower-cased; undefined when it has none. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return undefined;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
}

const connectionColumns = {
  connection: companyConnections,
  companyName: companies.name,
  companySlug: companies.slug,
};

/** The enabled connection that claims the address's domain, if any. */
export async function connectionForEmail(
  database: Database,
  email: string,
): Promise<ConnectionOfCompany | undefined> {
  const domain = emailDomain(email);
  if (domain === undefined) return undefined;
  const [found] = await database
    .select(connectionColumns)
    .from(companyDomains)
    .innerJoin(companyConnections, eq(companyConnections.id, companyDomains.connectionId))
    .innerJoin(companies, eq(companies.id, companyConnections.companyId))
    .where(and(eq(companyDomains.domain, domain), eq(companyConnections.enabled, true)))
    .limit(1);
  return found;
}

/** The enabled connection of the company with this sign-up handle, if any. */
export async function connectionForCompanySlug(
  database: Database,
  slug: string,
): Promise<ConnectionOfCompany | undefined> {
  const [found] = await database
    .select(connectionColumns)
    .from(companyConnections)
    .innerJoin(companies, eq(companies.id, companyConnections.companyId))
    .where(and(eq(companies.slug, slug.trim().toLowerCase()), eq(companyConnections.enabled, true)))
    .limit(1);
  return found;
}

/** The connection of this id, enabled or not. */
export async function connectionById(
  database: Database,
  id: number,
): Promise<ConnectionOfCompany | undefined> {
  const [found] = await database
    .select(connectionColumns)
    .from(companyConnections)
    .innerJoin(companies, eq(companies.id, companyConnections.companyId))
    .where(eq(companyConnections.id, id))
    .limit(1);
  return found;
}

/**
 * Whether the company that claims this address's domain signs its people in itself, refusing
 * passwords (docs/PRODUCT.md §15). Decided by the domain, which is public, so the answer tells a
 * stranger nothing about who has an account.
 */
export async function companySignInRequiredFor(
  database: Database,
  email: string,
): Promise<boolean> {
  const found = await connectionForEmail(database, email);
  return found?.connection.signInRequired ?? false;
}

/** Seals a connection's client secret, bound to its company (a connection's only owner). */
export function createConnectionSecrets(key: string | Uint8Array): ConnectionSecrets {
  const sealer: Sealer = createSealer('connection secrets', key, 'connection secret');
  const owner = (companyId: number) => `company:${String(companyId)}`;
  return {
    seal: (plain, companyId) => sealer.seal(new TextEncoder().encode(plain), owner(companyId)),
    open: (sealed, companyId) => new TextDecoder().decode(sealer.open(sealed, owner(companyId))),
  };
}

export interface ConnectionSecrets {
  seal(plain: string, companyId: number): string;
  open(sealed: string, companyId: number): string;
}
