import { createHash } from 'node:crypto';

/**
 * Members' pages as they were last sent, compressed, to be sent again while nothing they show has
 * changed. A page is kept under a key made of everything it was made from besides the member's data
 * (the session's credentials, the address, the form token, the welcome state, the coding), and with
 * the member's data version it was read at; it is served only after the API has checked the session
 * and answered that this version is still the member's.
 *
 * Bounded by the bytes of the pages it holds (the oldest used goes first), by the pages of one
 * owner (a member: past `maxPagesPerOwner`, their own oldest used goes, so one member asking for
 * page after page pushes out only their own), and by age: a page older than `maxAgeMs` is made
 * again, whatever the version says.
 */
export interface KeptMemberPage<Member> {
  /** The member's data version the page was made from. */
  readonly version: string;
  /** The member the layout showed, for the request's own use (monitoring) on a later view. */
  readonly member: Member;
  readonly status: number;
  /** The answer's headers, but for those of one answer alone (cookies, length, coding). */
  readonly headers: readonly (readonly [string, string])[];
  /** The page, compressed. */
  readonly body: Uint8Array;
}

interface MemberPageCacheOptions {
  /** The most bytes of pages kept at once; 0 keeps none. */
  readonly maxBytes: number;
  /** The most pages kept for one owner at once. */
  readonly maxPagesPerOwner: number;
  readonly maxAgeMs: number;
  readonly now?: () => number;
}

interface Entry<Member> {
  readonly page: KeptMemberPage<Member>;
  readonly owner: string;
  readonly keptAt: number;
  readonly bytes: number;
}

/** What an entry costs beyond its body: its headers, its member and the map's own share. */
const ENTRY_OVERHEAD_BYTES = 2048;

export class MemberPageCache<Member> {
  readonly #options: MemberPageCacheOptions;
  /** In order of use: the first is the one used longest ago. */
  readonly #entries = new Map<string, Entry<Member>>();
  /** Each owner's keys, in order of use as well. */
  readonly #keysByOwner = new Map<string, Set<string>>();
  #bytes = 0;

  constructor(options: MemberPageCacheOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.maxBytes > 0;
  }

  /** The bytes of the pages kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The key of a page view: one-way, so that what the cache holds names no session. Each part is
   * length-prefixed, so no two different lists of parts make the same key.
   */
  static key(parts: readonly string[]): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(`${part.length}:${part}`);
    return hash.digest('base64url');
  }

  /** The page kept under `key`, if any and not too old; counts as a use. */
  get(key: string): KeptMemberPage<Member> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.keptAt >= this.#options.maxAgeMs) {
      this.forget(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const owned = this.#keysByOwner.get(entry.owner);
    owned?.delete(key);
    owned?.add(key);
    return entry.page;
  }

  /**
   * Keeps `page` under `key` for `owner`, in place of what was there: the owner's own page used
   * longest ago goes first when they have as many as they may, then the least used of all, to fit.
   */
  keep(key: string, page: KeptMemberPage<Member>, owner: string): void {
    this.forget(key);
    const bytes = page.body.byteLength + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.#options.maxBytes || this.#options.maxPagesPerOwner < 1) return;
    const owned = this.#keysByOwner.get(owner) ?? new Set<string>();
    for (const ownKey of owned) {
      if (owned.size < this.#options.maxPagesPerOwner) break;
      this.forget(ownKey);
    }
    for (const oldKey of this.#entries.keys()) {
      if (this.#bytes + bytes <= this.#options.maxBytes) break;
      this.forget(oldKey);
    }
    this.#entries.set(key, { page, owner, keptAt: this.#now(), bytes });
    this.#bytes += bytes;
    owned.add(key);
    this.#keysByOwner.set(owner, owned);
  }

  forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    const owned = this.#keysByOwner.get(entry.owner);
    owned?.delete(key);
    if (owned?.size === 0) this.#keysByOwner.delete(entry.owner);
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}
