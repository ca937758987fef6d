import { BlockList, isIP } from 'node:net';

/**
 * The proxies the operator runs in front of a server (`TRUSTED_PROXIES`):
 * the only callers whose `X-Forwarded-For` and `X-Request-Id` are believed. Anyone else who
 * reaches the server could write any address there, and so pick their own rate limits.
 *
 * Addresses are matched with Node's `BlockList`, which also matches an IPv4 address written as
 * IPv6 (`::ffff:10.0.0.2`, how a dual-stack socket reports it) against IPv4 entries.
 */
export class TrustedProxies {
  /** Nobody: the socket address is the client's, and forwarded headers are ignored. */
  static readonly none = new TrustedProxies(new BlockList(), [], false);

  /**
   * Only a caller in the same process (no socket): the web server calling its embedded API,
   * having worked out the visitor's address itself.
   */
  static readonly thisProcess = new TrustedProxies(new BlockList(), [], true);

  readonly #addresses: BlockList;
  readonly #trustsThisProcess: boolean;
  /** The entries as the operator wrote them (`loopback` included), for messages and tests. */
  readonly entries: readonly string[];

  private constructor(
    addresses: BlockList,
    entries: readonly string[],
    trustsThisProcess: boolean,
  ) {
    this.#addresses = addresses;
    this.entries = entries;
    this.#trustsThisProcess = trustsThisProcess;
  }

  /**
   * `TRUSTED_PROXIES`: addresses and networks in CIDR form, comma-separated (`10.0.0.0/8,::1`),
   * and `loopback` for 127.0.0.0/8 and ::1. Empty trusts nobody.
   */
  static parse(list: string): TrustedProxies | { readonly problem: string } {
    const entries = list
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length === 0) return TrustedProxies.none;
    const addresses = new BlockList();
    for (const entry of entries) {
      // The setting once counted proxies: an operator upgrading is told what changed, and the
      // server does not start on a value that meant something else.
      if (/^\d+$/.test(entry)) {
        return { problem: `${expected}, not a number of proxies ("${entry}")` };
      }
      if (!addTo(addresses, entry)) return { problem: `${expected}, not "${entry}"` };
    }
    return new TrustedProxies(addresses, entries, false);
  }

  /** Whether `address`, a hop's IP address (undefined: a caller in this process), is trusted. */
  trusts(address: string | undefined): boolean {
    if (address === undefined) return this.#trustsThisProcess;
    const family = isIP(address);
    if (family === 0) return false;
    return this.#addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

const expected =
  "must list the proxies' addresses or networks, comma-separated (e.g. 10.0.0.0/8,::1 or loopback; empty for none)";

/** Adds one entry of the list; false when it is neither an address, a network nor `loopback`. */
function addTo(addresses: BlockList, entry: string): boolean {
  if (entry.toLowerCase() === 'loopback') {
    addresses.addSubnet('127.0.0.0', 8, 'ipv4');
    addresses.addAddress('::1', 'ipv6');
    return true;
  }
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  // A zone (`fe80::1%eth0`) names an interface of one machine, not a proxy anywhere.
  if (family === 0 || address.includes('%') || rest.length > 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    addresses.addAddress(address, type);
    return true;
  }
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) return false;
  addresses.addSubnet(address, bits, type);
  return true;
}
