/**
 * Load shedding: while the event loop lags more than `maxEventLoopDelayMs` (config
 * MAX_EVENT_LOOP_DELAY_MS; 0 turns it off), requests are answered 503 UNAVAILABLE with Retry-After,
 * except on routes whose config says `loadShedding: false` (/healthz, /readyz: an orchestrator must not
 * kill a busy instance as dead) and requests the `spare` option names: the console's own files (a shed
 * index.html is a dead page showing a JSON error, never retried; its files are cheap to serve). The
 * console resends a shed API call after Retry-After (apps/web/src/api/shed.ts). `app.isUnderPressure()` tells the same (main.ts waits for it after
 * start-up before announcing the server).
 *
 * Why not @fastify/under-pressure (used until the event backbone): it keeps an event-loop delay histogram of
 * 10 ms resolution running at all times, about 200 wake-ups a second, which was 0.85 % of a core on
 * an idle server (bench/idle.ts: 0.04 % without it), above the 0.5 % budget; its resolution
 * cannot be set. Here a timer samples the event-loop utilization (ELU, perf_hooks; computed from
 * libuv's own idle time, no extra wake-ups) every SAMPLE_MS; only while a sample finds the loop busy
 * (ELU >= BUSY_UTILIZATION) does the same 10 ms histogram run, and the lag is its mean minus the
 * resolution, as under-pressure computed it. A sample with no histogram value at all (the loop never
 * turned) counts as an endless lag.
 *
 * Sustained overload only: one long synchronous block after an idle spell (a PGlite stall, the loop
 * busy for a single sample) is not shed; the requests that waited for it are answered once it ends.
 * Counting the sampler's own lateness as lag was tried (in review): on a loaded CI machine two
 * e2e page loads then never rendered (a red run, consistent with 503s after such stalls); the block
 * is over by then, and a 503 helps nobody.
 */
import { type EventLoopUtilization, type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './api-error.js';

/** How often the event loop's utilization is sampled, ms. */
const SAMPLE_MS = 500;
/** Utilization over a sample from which the delay histogram runs (0-1). */
const BUSY_UTILIZATION = 0.5;
/** Resolution of the delay histogram, ms (Node's and under-pressure's). */
const RESOLUTION_MS = 10;

declare module 'fastify' {
  interface FastifyInstance {
    /** True while the event loop lags more than MAX_EVENT_LOOP_DELAY_MS (requests are shed). */
    isUnderPressure(): boolean;
  }
  interface FastifyContextConfig {
    /** false: the route is answered even while load is shed (health checks). */
    loadShedding?: false;
  }
}

export interface LoadSheddingOptions {
  /** Largest event-loop lag before requests are shed, ms; 0 never sheds. */
  maxEventLoopDelayMs: number;
  /** Retry-After of a shed request, s. */
  retryAfterS: number;
  /** Requests never shed beside routes marked `loadShedding: false` (the web app's files: web-plugin.ts isWebAppRequest). */
  spare?(request: FastifyRequest): boolean;
}

export const loadSheddingPlugin = fp(async (app: FastifyInstance, options: LoadSheddingOptions) => {
  let lagMs = 0;
  app.decorate('isUnderPressure', () => options.maxEventLoopDelayMs > 0 && lagMs > options.maxEventLoopDelayMs);
  if (options.maxEventLoopDelayMs <= 0) return;

  let histogram: IntervalHistogram | undefined;
  let previous: EventLoopUtilization = performance.eventLoopUtilization();
  const sample = () => {
    const current = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(current, previous);
    previous = current;
    if (histogram) {
      lagMs = histogram.count === 0 ? Number.POSITIVE_INFINITY : Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
      histogram.reset();
    }
    if (utilization >= BUSY_UTILIZATION && !histogram) {
      histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      histogram.enable();
    } else if (utilization < BUSY_UTILIZATION && histogram) {
      histogram.disable();
      histogram = undefined;
      lagMs = 0;
    }
    timer.refresh();
  };
  const timer = setTimeout(sample, SAMPLE_MS);
  timer.unref();

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.loadShedding === false || !app.isUnderPressure() || options.spare?.(request)) return;
    reply.header('retry-after', String(options.retryAfterS));
    throw new ApiError('UNAVAILABLE');
  });
  app.addHook('onClose', async () => {
    clearTimeout(timer);
    histogram?.disable();
  });
});
