import type { Payload } from './oidc-provider-typed.ts';

/**
 * The storage of the test OpenID Connect provider (oidc-identity-provider.ts): oidc-provider's
 * adapter interface over a Map in memory, lost when the provider stops.
 */

/** Seconds an entry outlives its expiry in the store, as oidc-provider's clock tolerance. */
const storeTolerance = 15;

export interface StoredEntry {
  readonly payload: Payload;
  /** Milliseconds since the epoch; none for what never expires (clients). */
  readonly expiresAt: number | undefined;
}

/**
 * oidc-provider's storage interface over one Map for every model. Clients are entries of the
 * model `Client` that never expire, which is what lets `addClient` work after start.
 */
export class InMemoryAdapter {
  readonly #model: string;
  readonly #store: Map<string, StoredEntry>;

  constructor(model: string, store: Map<string, StoredEntry>) {
    this.#model = model;
    this.#store = store;
  }

  #key(id: string): string {
    return `${this.#model}:${id}`;
  }

  #entries(): [string, Payload][] {
    const prefix = `${this.#model}:`;
    const found: [string, Payload][] = [];
    for (const [key, entry] of this.#store) {
      if (key.startsWith(prefix) && !isExpired(entry)) found.push([key, entry.payload]);
    }
    return found;
  }

  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    sweepExpired(this.#store);
    this.#store.set(this.#key(id), {
      payload,
      expiresAt:
        expiresIn === undefined ? undefined : Date.now() + (expiresIn + storeTolerance) * 1000,
    });
    return Promise.resolve();
  }

  find(id: string): Promise<Payload | undefined> {
    const key = this.#key(id);
    const entry = this.#store.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    if (isExpired(entry)) {
      this.#store.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry.payload);
  }

  findByUid(uid: string): Promise<Payload | undefined> {
    return Promise.resolve(this.#entries().find(([, payload]) => payload['uid'] === uid)?.[1]);
  }

  findByUserCode(userCode: string): Promise<Payload | undefined> {
    return Promise.resolve(
      this.#entries().find(([, payload]) => payload['userCode'] === userCode)?.[1],
    );
  }

  consume(id: string): Promise<void> {
    const entry = this.#store.get(this.#key(id));
    if (entry !== undefined) entry.payload['consumed'] = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.#store.delete(this.#key(id));
    return Promise.resolve();
  }

  revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, payload] of this.#entries()) {
      if (payload['grantId'] === grantId) this.#store.delete(key);
    }
    return Promise.resolve();
  }
}

function isExpired(entry: StoredEntry): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt <= Date.now();
}

function sweepExpired(store: Map<string, StoredEntry>): void {
  for (const [key, entry] of store) {
    if (isExpired(entry)) store.delete(key);
  }
}
