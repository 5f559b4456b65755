/**
 * The load generator's coordinator: forks `workers` processes (worker.ts), spreads the locks over
 * them round-robin in contiguous blocks, and sums their counters. Each worker is one event loop with
 * its own sockets, so the generator uses several cores while the server under test uses the rest.
 * Usage: `const load = startLoadgen({...}); await load.waitFor((c) => c.connected === n, 120_000)`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { type FleetCounters, type FleetOptions, zeroCounters as zero } from './types.js';

export interface LoadgenOptions extends Omit<FleetOptions, 'imeis' | 'lastSeqs' | 'offset'> {
  imeis: string[];
  /** Last stored seq per IMEI; default 0 for all. */
  lastSeqs?: number[];
  /** Worker processes (default 2). */
  workers?: number;
}

export interface Loadgen {
  /** The workers' counters summed (as last reported, at most REPORT_MS old). */
  counters(): FleetCounters;
  /** Heartbeats on or off in every worker (off: due locks only ping). */
  setPublishing(on: boolean): void;
  /** Resolves once `predicate` holds for the summed counters; rejects with `what` after `ms`. */
  waitFor(predicate: (counters: FleetCounters) => boolean, ms: number, what?: string): Promise<FleetCounters>;
  /** Closes every socket and ends the workers; resolves with the final counters. */
  end(): Promise<FleetCounters>;
}

/** Forks the workers and starts connecting at once. */
export function startLoadgen(options: LoadgenOptions): Loadgen {
  const { imeis, lastSeqs, workers: count = 2, ...rest } = options;
  const per = Math.ceil(imeis.length / count);
  const latest: FleetCounters[] = [];
  const children: ChildProcess[] = [];
  for (let w = 0; w * per < imeis.length; w++) {
    const child = fork(join(import.meta.dirname, 'worker.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    latest.push(zero());
    child.on('message', (counters: FleetCounters) => { latest[w] = counters; });
    const slice = imeis.slice(w * per, (w + 1) * per);
    const job: FleetOptions = { ...rest, imeis: slice, lastSeqs: lastSeqs?.slice(w * per, (w + 1) * per) ?? slice.map(() => 0), offset: w * per };
    child.send(job);
    children.push(child);
  }
  const counters = () => {
    const sum = zero();
    for (const c of latest) for (const key of Object.keys(sum) as (keyof FleetCounters)[]) sum[key] += c[key];
    return sum;
  };
  return {
    counters,
    setPublishing: (on) => { for (const child of children) child.send({ publishing: on }); },
    async waitFor(predicate, ms, what = 'the load generator') {
      const end = Date.now() + ms;
      for (;;) {
        const now = counters();
        if (predicate(now)) return now;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(now)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async end() {
      await Promise.all(children.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('end');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      })));
      return counters();
    },
  };
}
