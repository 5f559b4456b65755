/**
 * Figures of processes under load, read from /proc (Linux): resident memory (KB) and the processes
 * of a server started through tsx (its node child runs main.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** VmRSS of `pid`, KB; 0 when it is gone. */
export function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The node process of a server started by startServer (tsx's child), or `pid` itself. */
export function nodeChild(pid: number): number {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map(Number);
  return children[0] ?? pid;
}

/** The soft limit of open files of this process (children inherit it): one socket each. */
export function openFilesLimit(): number {
  const match = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  return Number(match?.[1] ?? 1024);
}

/** `n` with thousands separators. */
export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
