import { createServer } from 'node:net';

/**
 * The ports the tests, the bench and the load test take for their extra servers, sinks, proxies
 * and browsers: the system's choice, or, with TEST_PORT_RANGE (README), only ports of that range,
 * for machines where only known ports may be opened. A port of the range is taken only once it has
 * been found free.
 */

/** @typedef {{ readonly first: number, readonly last: number }} PortRange */

/**
 * TEST_PORT_RANGE as `first-last` (`41000-41999`), or `null` when unset or empty (the system's
 * choice). A wrong value throws with the usual "NAME must be …, not "value"".
 *
 * @param {string | undefined} value
 * @returns {PortRange | null}
 */
export function parsePortRange(value) {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  const match = /^(\d{1,5})\s*-\s*(\d{1,5})$/.exec(text);
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1 || last > 65_535 || first > last) {
    throw new Error(
      `TEST_PORT_RANGE must be a range of ports as first-last, from 1 to 65535, such as 41000-41999, not "${text}"`,
    );
  }
  return { first, last };
}

/** The range of this process's environment; `null` for the system's choice. */
export function portRange() {
  return parsePortRange(process.env.TEST_PORT_RANGE);
}

/**
 * Where the next search of each range starts in this process: after the last port it took, so
 * that a port handed out and not yet listened on (a server still starting, an address that must
 * stay dead) is not handed out again at once.
 *
 * @type {Map<string, number>}
 */
const nextOffsets = new Map();

/** Errors that mean "someone else has this port", not "something is wrong". */
const takenCodes = new Set(['EADDRINUSE', 'EACCES']);

/**
 * @param {unknown} error
 * @returns {boolean}
 */
export function isPortTaken(error) {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    takenCodes.has(String(error.code))
  );
}

/**
 * Takes a port with `claim`, which tries one (0: the system's choice) and resolves with the port
 * it now holds, or `undefined` when that port is taken. Without a range (`null`): `claim(0)`.
 * With one: each port of the range at most once, starting after the last one this process took
 * (the first time at a random place, so that processes sharing a range seldom try the same
 * ports), until one is claimed; throws when none can be.
 *
 * @param {(port: number) => Promise<number | undefined>} claim
 * @param {PortRange | null} [range] TEST_PORT_RANGE's unless given
 * @param {() => number} [random] from 0 (included) to 1, like Math.random
 * @returns {Promise<number>}
 */
export async function claimPort(claim, range = portRange(), random = Math.random) {
  if (range === null) {
    const port = await claim(0);
    if (port === undefined) throw new Error('The system gave no free port');
    return port;
  }
  const size = range.last - range.first + 1;
  const key = `${range.first}-${range.last}`;
  const start = nextOffsets.get(key) ?? Math.floor(random() * size);
  for (let step = 0; step < size; step += 1) {
    const offset = (start + step) % size;
    const port = await claim(range.first + offset);
    if (port !== undefined) {
      nextOffsets.set(key, (offset + 1) % size);
      return port;
    }
  }
  throw new Error(
    `No free port in TEST_PORT_RANGE=${key}: ${size === 1 ? 'its one port is' : `all ${size} are`} taken. ` +
      'Stop what holds them, or give a wider range.',
  );
}

/**
 * Listens `server` (a net or http server) on `host` and `port`; `undefined` when the port is
 * taken, and the server may then be asked to listen again.
 *
 * @param {import('node:net').Server} server
 * @param {number} port
 * @param {string} host
 * @returns {Promise<number | undefined>}
 */
function listenOn(server, port, host) {
  return new Promise((resolve, reject) => {
    /** @param {Error} error */
    const failed = (error) => {
      if (isPortTaken(error)) resolve(undefined);
      else reject(error);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.removeListener('error', failed);
      const address = server.address();
      if (typeof address !== 'object' || address === null)
        reject(new Error('No port was assigned'));
      else resolve(address.port);
    });
  });
}

/**
 * Listens `server` on a loopback port (of TEST_PORT_RANGE when set) and returns it. Better than
 * {@link freePort} for a server of this process: no other process can take the port in between.
 *
 * @param {import('node:net').Server} server
 * @param {string} [host]
 * @param {PortRange | null} [range] TEST_PORT_RANGE's unless given
 * @returns {Promise<number>}
 */
export function listenOnFreePort(server, host = '127.0.0.1', range = portRange()) {
  return claimPort((port) => listenOn(server, port, host), range);
}

/**
 * A loopback port that nothing held a moment ago (of TEST_PORT_RANGE when set), for a server of
 * another process or an address where nothing must listen.
 *
 * @param {PortRange | null} [range] TEST_PORT_RANGE's unless given
 * @returns {Promise<number>}
 */
export function freePort(range = portRange()) {
  return claimPort(async (port) => {
    const probe = createServer();
    const taken = await listenOn(probe, port, '127.0.0.1');
    if (taken !== undefined) await new Promise((resolve) => probe.close(resolve));
    return taken;
  }, range);
}
