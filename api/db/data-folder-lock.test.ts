import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DataFolderInUseError,
  isDataFolderInUse,
  LOCK_FILE_NAME,
  lockDataFolder,
  refuseDataFolderInUse,
  removeAbandonedLock,
  type DataFolderLock,
  type LockHolder,
} from './data-folder-lock.ts';

const moduleFile = fileURLToPath(new URL('./data-folder-lock.ts', import.meta.url));

let folder: string;
let lockFile: string;
const locks: DataFolderLock[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'data-folder-lock-'));
  lockFile = path.join(folder, LOCK_FILE_NAME);
});

afterEach(async () => {
  await Promise.all(locks.splice(0).map((lock) => lock.release()));
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

async function lock(options?: Parameters<typeof lockDataFolder>[1]): Promise<DataFolderLock> {
  const taken = await lockDataFolder(folder, options);
  locks.push(taken);
  return taken;
}

/** What the lock file says now. */
const holderNow = (): LockHolder => JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder;

/** A lock file as some other process would have left it. */
function leaveLock(holder: { [Key in keyof LockHolder]?: LockHolder[Key] | undefined }): void {
  writeFileSync(
    lockFile,
    JSON.stringify({ pid: 1, host: hostname(), token: 'someone-else', ...holder }),
  );
}

/** The pid of a process that runs until the test ends. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  children.push(child);
  if (child.pid === undefined) throw new Error('The process did not start');
  return child.pid;
}

/** The pid of a process that has exited (and, that soon, belongs to nobody else). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat
    ?.slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .at(19);
}

/**
 * `count` processes that try to lock the folder at the same moment; what each said: `held` or
 * the refusal's message. Each keeps what it took until all have tried.
 */
async function processesTogether(count: number): Promise<string[]> {
  // A moment after all of them have started (Node takes a while to start on a busy machine).
  const script = `
    import { lockDataFolder } from ${JSON.stringify(moduleFile)};
    const go = ${Date.now() + 1_500};
    while (Date.now() < go);
    try {
      await lockDataFolder(${JSON.stringify(folder)});
      console.log('held');
    } catch (error) {
      console.log(error.message);
    }
    setTimeout(() => process.exit(0), 4000);
  `;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(
        process.execPath,
        ['--experimental-strip-types', '--input-type=module', '-e', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      let said = '';
      child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
      await new Promise((resolve) => child.once('exit', resolve));
      return said.trim();
    }),
  );
}

describe('lockDataFolder', () => {
  it('takes a free folder and writes this process into its lock file', async () => {
    await lock();
    expect(holderNow()).toMatchObject({ pid: process.pid, host: hostname() });
  });

  it('lets the folder go on release, so that the next process takes it', async () => {
    const first = await lock();
    await first.release();
    expect(existsSync(lockFile)).toBe(false);
    await lock();
    expect(holderNow().pid).toBe(process.pid);
  });

  it('refuses a folder a live process holds, in one line naming the folder, the pid and the way out', async () => {
    const holder = liveProcess();
    leaveLock({ pid: holder, startTime: await startTimeOf(holder) });
    const refusal = await lock().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DataFolderInUseError);
    expect(isDataFolderInUse(refusal)).toBe(true);
    expect((refusal as Error).message).toBe(
      `The data folder ${folder} is in use by another process (pid ${holder}): stop it, or give this one DATA_DIR=… of its own, or use DATABASE_URL.`,
    );
    // The holder's lock stays.
    expect(holderNow().pid).toBe(holder);
  });

  it('shows a folder inside the working directory as a relative path', async () => {
    const inside = mkdtempSync(path.join(process.cwd(), '.data-folder-lock-'));
    try {
      const holder = liveProcess();
      writeFileSync(
        path.join(inside, LOCK_FILE_NAME),
        JSON.stringify({ pid: holder, host: hostname(), token: 'someone-else' }),
      );
      await expect(lockDataFolder(inside)).rejects.toThrow(
        `The data folder ./${path.basename(inside)} is in use by another process`,
      );
    } finally {
      rmSync(inside, { recursive: true, force: true });
    }
  });

  it('takes over a lock left by a process that died', async () => {
    leaveLock({ pid: await deadPid() });
    await lock();
    expect(holderNow().pid).toBe(process.pid);
  });

  it('takes over a lock whose pid now belongs to a process that started later', async () => {
    leaveLock({ pid: liveProcess(), startTime: '1' });
    await lock();
    expect(holderNow().pid).toBe(process.pid);
  });

  it('takes over a lock that names this process but not one it made (a restarted container)', async () => {
    leaveLock({ pid: process.pid, startTime: await startTimeOf(process.pid) });
    await lock();
    expect(holderNow().token).not.toBe('someone-else');
  });

  it('takes over a lock file that names nobody', async () => {
    writeFileSync(lockFile, 'not a lock');
    await lock();
    expect(holderNow().pid).toBe(process.pid);
  });

  it('refuses a second lock in the same process', async () => {
    await lock();
    await expect(lockDataFolder(folder)).rejects.toThrow(
      `is in use by this very process (pid ${process.pid})`,
    );
  });

  it('gives the folder to one of two locks asked for at the same moment in one process', async () => {
    const results = await Promise.allSettled([lock(), lock()]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses a lock of another machine that its holder keeps refreshing', async () => {
    leaveLock({ pid: 4242, host: 'web-2' });
    await expect(lock()).rejects.toThrow(
      'is in use by another process (pid 4242 on web-2): stop it',
    );
  });

  it('takes over a lock of another machine that nobody refreshed for a minute', async () => {
    leaveLock({ pid: 4242, host: 'web-2' });
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(lockFile, twoMinutesAgo, twoMinutesAgo);
    await lock();
    expect(holderNow().pid).toBe(process.pid);
  });

  it('refreshes its lock file, so that other machines see its holder alive', async () => {
    await lock({ heartbeatMs: 20 });
    const longAgo = new Date(Date.now() - 120_000);
    utimesSync(lockFile, longAgo, longAgo);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(lockDataFolder(folder, { host: 'web-2' })).rejects.toThrow(
      `is in use by another process (pid ${process.pid} on ${hostname()})`,
    );
  });

  it('gives a free folder to exactly one of several processes that start together', async () => {
    const said = await processesTogether(4);
    expect(said.filter((line) => line === 'held')).toHaveLength(1);
    expect(said.filter((line) => line.includes('is in use by another process'))).toHaveLength(3);
  }, 30_000);

  it('gives an abandoned folder to exactly one of several processes that start together', async () => {
    leaveLock({ pid: await deadPid() });
    const said = await processesTogether(4);
    expect(said.filter((line) => line === 'held')).toHaveLength(1);
    expect(said.filter((line) => line.includes('is in use by another process'))).toHaveLength(3);
  }, 30_000);
});

describe('refuseDataFolderInUse', () => {
  it('refuses a folder a live process holds, in the words of the lock, and takes nothing', async () => {
    const holder = liveProcess();
    leaveLock({ pid: holder, startTime: await startTimeOf(holder) });
    const refusal = await refuseDataFolderInUse(folder).catch((error: unknown) => error);
    expect(isDataFolderInUse(refusal)).toBe(true);
    expect((refusal as Error).message).toContain(`is in use by another process (pid ${holder})`);
    expect(holderNow().pid).toBe(holder);
  });

  it('lets a free folder, an abandoned lock and this process’s own lock pass, taking nothing', async () => {
    await refuseDataFolderInUse(folder);
    expect(existsSync(lockFile)).toBe(false);
    leaveLock({ pid: await deadPid() });
    await refuseDataFolderInUse(folder);
    rmSync(lockFile);
    await lock();
    await refuseDataFolderInUse(folder);
    expect(holderNow().pid).toBe(process.pid);
  });
});

describe('removeAbandonedLock', () => {
  it('leaves a lock that changed since it was judged abandoned (another process took it over)', async () => {
    leaveLock({ token: 'the-new-holder' });
    await removeAbandonedLock(lockFile, JSON.stringify({ token: 'the-abandoned-one' }));
    expect(holderNow().token).toBe('the-new-holder');
  });

  it('leaves the lock alone while another process is taking it over', async () => {
    leaveLock({});
    writeFileSync(`${lockFile}.takeover`, '4242\n');
    await removeAbandonedLock(lockFile, readFileSync(lockFile, 'utf8'));
    expect(existsSync(lockFile)).toBe(true);
  });

  it('removes the lock it judged, and its own takeover marker', async () => {
    leaveLock({});
    await removeAbandonedLock(lockFile, readFileSync(lockFile, 'utf8'));
    expect(existsSync(lockFile)).toBe(false);
    expect(existsSync(`${lockFile}.takeover`)).toBe(false);
  });

  it('clears a takeover marker left by a process that died taking over', async () => {
    leaveLock({});
    writeFileSync(`${lockFile}.takeover`, '4242\n');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(`${lockFile}.takeover`, longAgo, longAgo);
    await removeAbandonedLock(lockFile, readFileSync(lockFile, 'utf8'));
    expect(existsSync(`${lockFile}.takeover`)).toBe(false);
  });
});
