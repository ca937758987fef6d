import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { claimPort, freePort, listenOnFreePort, parsePortRange } from './free-port.mjs';

describe('parsePortRange', () => {
  it('reads first-last, spaces allowed', () => {
    expect(parsePortRange('41000-41999')).toEqual({ first: 41_000, last: 41_999 });
    expect(parsePortRange(' 41000 - 41000 ')).toEqual({ first: 41_000, last: 41_000 });
  });

  it('leaves the choice to the system when unset or empty', () => {
    expect(parsePortRange(undefined)).toBeNull();
    expect(parsePortRange('  ')).toBeNull();
  });

  it.each(['41000', '41000:41999', 'ports', '0-10', '41999-41000', '65000-70000'])(
    'refuses %s, naming the setting and the form it takes',
    (value) => {
      expect(() => parsePortRange(value)).toThrow(
        `TEST_PORT_RANGE must be a range of ports as first-last, from 1 to 65535, such as 41000-41999, not "${value}"`,
      );
    },
  );
});

describe('claimPort', () => {
  /** A claim that takes any port but `taken`, and remembers what it was asked. */
  const claimer = (taken: readonly number[]) => {
    const tried: number[] = [];
    const claim = (port: number): Promise<number | undefined> => {
      tried.push(port);
      return Promise.resolve(taken.includes(port) ? undefined : port);
    };
    return { tried, claim };
  };

  it('asks the system for a port when no range is set', async () => {
    const { tried } = claimer([]);
    const port = await claimPort((asked) => {
      tried.push(asked);
      return Promise.resolve(45_678);
    }, null);
    expect(tried).toEqual([0]);
    expect(port).toBe(45_678);
  });

  it('starts at a random place in the range and skips the ports that are taken', async () => {
    const { tried, claim } = claimer([41_005, 41_006]);
    const port = await claimPort(claim, { first: 41_000, last: 41_009 }, () => 0.5);
    expect(tried).toEqual([41_005, 41_006, 41_007]);
    expect(port).toBe(41_007);
  });

  it('hands out the next port each time, wrapping around the end of the range', async () => {
    const range = { first: 42_000, last: 42_002 };
    const { claim } = claimer([]);
    const ports = [];
    for (let time = 0; time < 4; time += 1) ports.push(await claimPort(claim, range, () => 0.9));
    expect(ports).toEqual([42_002, 42_000, 42_001, 42_002]);
  });

  it('says so when every port of the range is taken', async () => {
    const { tried, claim } = claimer([43_000, 43_001, 43_002]);
    await expect(claimPort(claim, { first: 43_000, last: 43_002 }, () => 0)).rejects.toThrow(
      'No free port in TEST_PORT_RANGE=43000-43002: all 3 are taken. Stop what holds them, or give a wider range.',
    );
    expect(tried).toHaveLength(3);
  });
});

describe('freePort and listenOnFreePort', () => {
  const servers: Server[] = [];
  const listening = async (): Promise<number> => {
    const server = createServer();
    servers.push(server);
    return listenOnFreePort(server, '127.0.0.1', null);
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('take a port of the range only when nothing holds it', async () => {
    const held = await listening();
    const range = { first: held, last: held };
    await expect(freePort(range)).rejects.toThrow(
      `No free port in TEST_PORT_RANGE=${held}-${held}: its one port is taken.`,
    );
    await expect(listenOnFreePort(createServer(), '127.0.0.1', range)).rejects.toThrow(
      /its one port is taken/,
    );

    const last = servers.pop();
    await new Promise((resolve) => last?.close(resolve));
    const server = createServer();
    servers.push(server);
    expect(await listenOnFreePort(server, '127.0.0.1', range)).toBe(held);
  });

  it("leave the port to the system's choice without a range", async () => {
    expect(await freePort(null)).toBeGreaterThan(0);
    expect(await listening()).toBeGreaterThan(0);
  });
});
