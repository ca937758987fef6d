import { randomUUID } from 'node:crypto';
import { link, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process per PGlite folder. PGlite keeps no lock of its own: two processes that open one
 * folder each write it as if alone, and what one of them commits can be gone after a restart. The
 * process that opens a folder leaves a file in it naming itself; a second one finds it, sees that
 * its holder is alive, and refuses to start.
 *
 * Node has no file locks of the operating system's, so the holder's liveness is checked instead,
 * which makes a lock left by a process that died (SIGKILL, out of memory) no obstacle:
 *
 * - On this machine (the same host name), by its pid, and, where /proc tells, by the time the
 *   process started, so that another process given the same pid later (a container restarted
 *   on the same folder is pid 1 again) does not pass for the holder.
 * - On another machine sharing the folder, where no pid can be checked, by the file's time,
 *   which the holder refreshes every {@link DEFAULT_HEARTBEAT_MS}: unrefreshed for
 *   {@link DEFAULT_ABANDONED_AFTER_MS}, its holder is taken to be gone.
 */

/** The file, inside the data folder, that names the process holding it. */
export const LOCK_FILE_NAME = 'process.lock';

/** How often the holder refreshes its lock file's time, for processes on other machines. */
const DEFAULT_HEARTBEAT_MS = 10_000;

/** A lock of another machine's that was not refreshed for this long is abandoned. */
const DEFAULT_ABANDONED_AFTER_MS = 60_000;

/** Taking over an abandoned lock lasts milliseconds; a marker this old was left by a crash. */
const TAKEOVER_ABANDONED_AFTER_MS = 10_000;

/** Rounds of "create it, or judge its holder", each of which another process may win. */
const ATTEMPTS = 50;

/** What the lock file says: who holds the folder. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When the process started (/proc/<pid>/stat, in clock ticks since boot), where known. */
  readonly startTime?: string | undefined;
  /** This holding's own mark: a file with another one is someone else's. */
  readonly token: string;
}

interface DataFolderLockOptions {
  /** This machine's name (default `os.hostname()`); tests play another machine with it. */
  readonly host?: string | undefined;
  readonly heartbeatMs?: number | undefined;
  readonly abandonedAfterMs?: number | undefined;
}

/** A data folder held by this process, until {@link DataFolderLock.release}. */
export interface DataFolderLock {
  /** The lock file. */
  readonly file: string;
  /** Lets the folder go (removes the lock file if it is still this holding's). Safe to repeat. */
  release(): Promise<void>;
}

/**
 * The folder is open in another process that is alive. Its message is the one line to show
 * people: the folder, the holder and what to do.
 */
export class DataFolderInUseError extends Error {
  override name = 'DataFolderInUseError';
  /** Tells this error apart across copies of this module (the web server bundles its own). */
  readonly code = 'DATA_FOLDER_IN_USE';
  readonly folder: string;
  readonly holder: LockHolder;

  constructor(folder: string, holder: LockHolder, host: string) {
    const who =
      holder.pid === process.pid && holder.host === host
        ? `this very process (pid ${holder.pid})`
        : holder.host === host
          ? `another process (pid ${holder.pid})`
          : `another process (pid ${holder.pid} on ${holder.host})`;
    super(
      `The data folder ${shownFolder(folder)} is in use by ${who}: stop it, or give this one ` +
        'DATA_DIR=… of its own, or use DATABASE_URL.',
    );
    this.folder = folder;
    this.holder = holder;
  }
}

/** Whether an error is {@link DataFolderInUseError}, from whichever copy of this module. */
export const isDataFolderInUse = (error: unknown): error is DataFolderInUseError =>
  error instanceof Error && (error as { code?: unknown }).code === 'DATA_FOLDER_IN_USE';

/**
 * The marks of the locks this process made, shared by every copy of this module in it (the web
 * server's bundle has one, a test's import another): a lock with one of them is this process's,
 * even in the moment between making it and returning it.
 */
const ownTokens: Set<string> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('member-portal.data-folder-lock-tokens')
] ??= new Set<string>()) as Set<string>;

/**
 * Takes the data folder for this process, or throws {@link DataFolderInUseError} when a live
 * process holds it. A lock whose holder is gone is taken over. The folder must exist.
 */
export async function lockDataFolder(
  folder: string,
  options: DataFolderLockOptions = {},
): Promise<DataFolderLock> {
  const host = options.host ?? hostname();
  const file = path.join(path.resolve(folder), LOCK_FILE_NAME);
  const me: LockHolder = {
    pid: process.pid,
    host,
    startTime: await startTimeOf(process.pid),
    token: randomUUID(),
  };

  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (await tryToCreate(file, me)) {
      return holding(file, me, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    }
    const found = await readLock(file);
    if (found === undefined) continue; // Let go meanwhile: try again.
    if (found.holder && (await isAlive(found.holder, file, host, options))) {
      throw new DataFolderInUseError(folder, found.holder, host);
    }
    await removeAbandonedLock(file, found.text);
  }
  throw new Error(
    `The data folder ${shownFolder(folder)} could not be locked: its lock file (${LOCK_FILE_NAME}) kept changing.`,
  );
}

/**
 * Throws {@link DataFolderInUseError} when a live process other than this one holds the folder,
 * and takes nothing either way: for a process that opens the folder later but must refuse a
 * folder in use as it starts (`npm run dev`, which may start again in the process that holds it).
 */
export async function refuseDataFolderInUse(
  folder: string,
  options: DataFolderLockOptions = {},
): Promise<void> {
  const host = options.host ?? hostname();
  const file = path.join(path.resolve(folder), LOCK_FILE_NAME);
  const holder = (await readLock(file))?.holder;
  if (!holder || (holder.host === host && ownTokens.has(holder.token))) return;
  if (await isAlive(holder, file, host, options)) {
    throw new DataFolderInUseError(folder, holder, host);
  }
}

/**
 * Creates the lock file whole, or not at all: written under a name of its own, then linked into
 * place, which fails if the file exists. A file opened with `wx` and then written would exist
 * empty for a moment, and a process reading it then could not tell a holder from a crash.
 */
async function tryToCreate(file: string, me: LockHolder): Promise<boolean> {
  const draft = `${file}.${me.token}`;
  await writeFile(draft, `${JSON.stringify(me)}\n`, { flag: 'wx' });
  ownTokens.add(me.token);
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    ownTokens.delete(me.token);
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** The lock file's text and holder (undefined if it names none), or undefined if there is none. */
async function readLock(
  file: string,
): Promise<{ text: string; holder: LockHolder | undefined } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  return { text, holder: parseHolder(text) };
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (
      typeof value?.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.token === 'string'
    ) {
      return {
        pid: value.pid,
        host: value.host,
        token: value.token,
        startTime: typeof value.startTime === 'string' ? value.startTime : undefined,
      };
    }
  } catch {
    // Not a lock this code wrote: nobody can be named, so nobody holds it.
  }
  return undefined;
}

async function isAlive(
  holder: LockHolder,
  file: string,
  host: string,
  options: DataFolderLockOptions,
): Promise<boolean> {
  if (holder.host !== host) {
    const abandonedAfterMs = options.abandonedAfterMs ?? DEFAULT_ABANDONED_AFTER_MS;
    const refreshed = await stat(file).then(
      (stats) => stats.mtimeMs,
      () => 0,
    );
    return Date.now() - refreshed < abandonedAfterMs;
  }
  // Not one of ours: an earlier process had our pid.
  if (holder.pid === process.pid) return ownTokens.has(holder.token);
  if (!processExists(holder.pid)) return false;
  if (holder.startTime === undefined) return true;
  const startTime = await startTimeOf(holder.pid);
  return startTime === undefined || startTime === holder.startTime;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return codeOf(error) === 'EPERM';
  }
}

/** When a process started, in clock ticks since boot (Linux); undefined elsewhere. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces; the fields after it may not. The start
    // time is field 22, the 20th after the name.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .at(19);
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock whose holder is gone, if it is still the one judged: two processes that judged
 * it together must not both remove it, or the second would remove the first one's new lock. So
 * the removal happens under a marker of its own, created with `wx`, and only after reading the
 * lock again under it. Exported for its tests.
 */
export async function removeAbandonedLock(file: string, judged: string): Promise<void> {
  const marker = `${file}.takeover`;
  try {
    await writeFile(marker, `${process.pid}\n`, { flag: 'wx' });
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    const since = await stat(marker).then(
      (stats) => stats.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - since > TAKEOVER_ABANDONED_AFTER_MS) {
      await unlink(marker).catch(() => undefined);
    }
    // Another process is taking it over: see what it made of it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return;
  }
  try {
    const current = await readLock(file);
    if (current?.text === judged) await unlink(file).catch(ignoreMissing);
  } finally {
    await unlink(marker).catch(() => undefined);
  }
}

function holding(file: string, me: LockHolder, heartbeatMs: number): DataFolderLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, heartbeatMs);
  // The lock must not keep a process alive that has nothing else to do.
  heartbeat.unref();
  let released: Promise<void> | undefined;
  return {
    file,
    release() {
      released ??= (async () => {
        clearInterval(heartbeat);
        const current = await readLock(file).catch(() => undefined);
        if (current?.holder?.token === me.token) await unlink(file).catch(ignoreMissing);
        ownTokens.delete(me.token);
      })();
      return released;
    },
  };
}

/** The folder as people gave it: relative to the working directory when inside it. */
function shownFolder(folder: string): string {
  const absolute = path.resolve(folder);
  const relative = path.relative(process.cwd(), absolute);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return absolute;
  return `./${relative}`;
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== 'ENOENT') throw error;
}
