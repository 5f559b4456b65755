/**
 * A throw-away PostgreSQL cluster for the benchmarks (Debian's server binaries, trust auth on
 * 127.0.0.1, a free port, data in a temp folder, run as user postgres when we are root). Unlike the
 * test cluster it keeps fsync and synchronous_commit on: the figures include real durability.
 * Returns undefined when the binaries are missing (the benchmark then skips PostgreSQL).
 * With `keepDir` the cluster lives in that folder and survives stop(): a later start with the same
 * folder reuses its data (`reused`), so a benchmark with a long fill can cache it between runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../apps/server/integration/server-process.js';

export interface BenchPostgres {
  url: string;
  version: string;
  /** The cluster's data directory (postmaster.pid: its process, for CPU figures). */
  dataDir: string;
  /** True when `keepDir` already held a cluster (its data is the previous run's). */
  reused: boolean;
  stop(): void;
}

/** `port`: listen there instead of a free one; `settings`: more server settings (name=value, as -c). */
export async function startPostgres(options: { keepDir?: string; port?: number; settings?: string[] } = {}): Promise<BenchPostgres | undefined> {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const bin = readdirSync(base).sort((a, b) => Number(b) - Number(a)).map((v) => join(base, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!bin) return undefined;
  const dir = options.keepDir ?? mkdtempSync(join(tmpdir(), 'iot-bench-pg-'));
  mkdirSync(dir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const result = spawnSync(file as string, argv as string[], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const port = options.port ?? (await freePort());
  const data = join(dir, 'data');
  const reused = existsSync(join(data, 'PG_VERSION'));
  if (!reused) run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB${(options.settings ?? []).map((v) => ` -c ${v}`).join('')}`, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: run('postgres', ['--version']).trim(),
    dataDir: data,
    reused,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', options.keepDir ? 'fast' : 'immediate', 'stop']);
      } finally {
        if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
