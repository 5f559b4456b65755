/**
 * Worker threads for CPU-heavy request work (one request must never stall everyone): a
 * piscina pool running workers/spreadsheet-worker.ts, started at its first task or by warm(), at most
 * WORKER_THREADS_MAX threads (one stays alive, others leave after IDLE_MS), closed with the app.
 * In the compiled build (apps/server/dist) the worker is spreadsheet-worker.js next to the bundle; from
 * the sources (tests, tsx) the same entry bundled on first use (source-build.ts). A worker that fails
 * fails its task, never the process. `app.workers` offers:
 * - readSheet: an upload's first sheet within limits, or throws SheetRefusal;
 * - exportChannel: a writer of one export in the worker (see ExportChannel).
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Piscina } from 'piscina';
import type { Cell, ExportLayout } from '../spreadsheet/export-write.js';
import { type Sheet, type SheetLimits, SheetRefusal } from '../spreadsheet/limits.js';
import type { ExportMessage, ExportReply, ReadSheetResult } from './spreadsheet-worker.js';

/** Threads at most: one fewer than the cores (the event loop keeps one), at least one, at most two. */
const WORKER_THREADS_MAX = Math.max(1, Math.min(2, availableParallelism() - 1));
/** A thread beyond the first leaves after this long without work, ms. */
const IDLE_MS = 30_000;
/** Heap of one worker, MiB: a pathological file fails its task, not the server. */
const WORKER_HEAP_MIB = 512;

/** One export being written in a worker: send batches in order (each resolves once written), then end. */
export interface ExportChannel {
  send(rows: Cell[][]): Promise<void>;
  end(): Promise<void>;
  /** Stops the worker's task (the client went away). */
  abort(): void;
}

export interface Workers {
  /**
   * Starts the pool now rather than at the first task (main.ts, after listening): the first upload's
   * refusal then does not wait for a thread to start and load the spreadsheet code (a
   * 200,000-row sheet refused within 1 s; 3.1 s with the start).
   */
  warm(): void;
  readSheet(bytes: Uint8Array, limits: SheetLimits): Promise<Sheet>;
  /** Opens an export in a worker; its bytes (CSV text or xlsx chunks) go to `onChunk` in order. */
  exportChannel(layout: ExportLayout, onChunk: (chunk: Buffer) => void): ExportChannel;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    workers: Workers;
  }
}

/** The worker's file URL: compiled next to this bundle, or bundled from the sources. */
async function workerFile(): Promise<string> {
  if (!import.meta.url.endsWith('.ts')) return new URL('./spreadsheet-worker.js', import.meta.url).href;
  const { bundleWorker } = await import('./source-build.js');
  return bundleWorker('./spreadsheet-worker.ts');
}

/** A lazily started pool (no thread until the first task). */
export function createWorkers(): Workers {
  let pool: Promise<Piscina> | undefined;
  const started = () => {
    pool ??= workerFile().then((filename) => {
      const piscina = new Piscina({
        filename, minThreads: 1, maxThreads: WORKER_THREADS_MAX, idleTimeout: IDLE_MS, concurrentTasksPerWorker: 4, atomics: 'async',
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB },
      });
      // A worker that cannot start or dies rejects its tasks; without a listener the event would end the process.
      piscina.on('error', () => {});
      return piscina;
    });
    return pool;
  };
  return {
    warm() {
      started().catch(() => {}); // a pool that cannot start fails the first task instead
    },
    async readSheet(bytes, limits) {
      const result = await (await started()).run({ bytes, limits }, { name: 'readSheet' }) as ReadSheetResult;
      if ('refusal' in result) throw new SheetRefusal(result.refusal);
      return result.sheet;
    },
    exportChannel(layout, onChunk) {
      const { port1, port2 } = new MessageChannel();
      const task = started().then((piscina) => piscina.run({ layout, port: port2 }, { name: 'writeExport', transferList: [port2] }) as Promise<void>);
      const failed = task.then(() => new Promise<never>(() => {}));
      // Seen by send()/end() when they wait; never an unhandled rejection in between.
      task.catch(() => {});
      failed.catch(() => {});
      let next: (() => void) | undefined;
      const reply = () => new Promise<void>((resolve) => { next = resolve; });
      port1.on('message', (message: ExportReply) => {
        if ('chunk' in message) onChunk(typeof message.chunk === 'string' ? Buffer.from(message.chunk) : Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
        else next?.(); // { written } or { done }: in order after the chunks before them
      });
      const post = (message: ExportMessage) => port1.postMessage(message);
      return {
        async send(rows) {
          const written = reply();
          post({ rows });
          await Promise.race([written, failed]);
        },
        async end() {
          const done = reply();
          post({ end: true });
          try {
            await Promise.race([done, failed]);
            await task;
          } finally {
            port1.close();
          }
        },
        abort: () => port1.close(),
      };
    },
    async close() {
      const closing = pool;
      pool = undefined;
      await (await closing?.catch(() => undefined))?.destroy();
    },
  };
}

/** Decorates `app.workers` and closes the pool with the app. */
export const workersPlugin = fp(async (app: FastifyInstance) => {
  const workers = createWorkers();
  app.decorate('workers', workers);
  app.addHook('onClose', () => workers.close());
});
