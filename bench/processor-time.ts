import { readFileSync } from 'node:fs';

/** Linux's clock ticks a second (`getconf CLK_TCK`), in which `/proc/<pid>/stat` counts. */
const TICKS_PER_SECOND = 100;

/**
 * The processor time (user and system) a process has used so far, all its threads together, in
 * ms: a server's web thread and its embedded API's. Read from `/proc/<pid>/stat`, fields 14 and 15.
 */
export function processorMs(pid: number): number {
  return processorMsOfStat(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
}

/** {@link processorMs} of a `/proc/<pid>/stat` line; the command's name may hold spaces. */
export function processorMsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`Not a /proc stat line: ${stat.slice(0, 80)}`);
  return (ticks * 1000) / TICKS_PER_SECOND;
}
