/**
 * CPU time of processes read from /proc (Linux), for benchmarks that report what a figure cost:
 * `cpuMs(pid)` is the process's user + system time in ms; with `family`, plus its reaped children and
 * its live children (a PostgreSQL postmaster's backends, tsx's node child). 0 for a process gone.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** /proc/<pid>/stat fields after the command name: [state, ppid, …]; utime is index 11, stime 12, cutime 13, cstime 14. */
function statOf(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  } catch {
    return undefined; // exited meanwhile
  }
}

/** CPU time of process `pid`, ms (see the module's note for `family`). */
export function cpuMs(pid: number, family = false): number {
  const ticks = (fields: string[] | undefined, from: number, to: number) => fields ? fields.slice(from, to + 1).reduce((sum, f) => sum + Number(f), 0) : 0;
  let total = ticks(statOf(pid), 11, family ? 14 : 12);
  if (family) {
    for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      const fields = statOf(entry);
      if (fields?.[1] === String(pid)) total += ticks(fields, 11, 12);
    }
  }
  return (total * 1000) / TICKS_PER_S;
}

/** This process's own CPU time, ms (e.g. autocannon's load generation). */
export const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The PostgreSQL postmaster's pid, from `dataDir`/postmaster.pid. */
export const postmasterPid = (dataDir: string): number => Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);

/**
 * Waits until process `pid` has used under `shareLimit` (default 0.05: 5 % of one core) of CPU in each of
 * two consecutive seconds, at most `timeoutMs` (default 60,000); resolves the ms waited. A freshly
 * started demo server keeps working for seconds after it listens (the simulated fleet fills its
 * backup-code pools): a page audited then measures that, not the page.
 */
export async function waitQuiet(pid: number, shareLimit = 0.05, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  let quietSeconds = 0;
  let before = cpuMs(pid);
  while (quietSeconds < 2 && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuMs(pid);
    quietSeconds = now - before < shareLimit * 1000 ? quietSeconds + 1 : 0;
    before = now;
  }
  return Date.now() - started;
}
