/**
 * A property-based fuzz of every registered route (test/fuzz-support.ts) with a fixed seed,
 * on PGlite and PostgreSQL: no hostile request may get a 5xx or take longer than 5 s. `npm run fuzz`
 * runs the same with more requests and other seeds (bench/RESULTS.md); each run prints its statuses
 * (with FUZZ_EVENT_LOOP_DELAY_MS=1000, load shedding on as in a server: how many 503s it causes).
 */
import { apiEndpoints } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzApp, routesOf } from './fuzz-support.js';
import { closeSockets, listenOnLoopback } from './fuzz-transport.js';
import { createTestContext, skipSuite, type TestContext } from './helper.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
/** Fixed in `npm test`; `npm run fuzz` may pass another (FUZZ_SEED) to explore further. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

describe.skipIf(skipSuite)('fuzzing every route', () => {
  let ctx: TestContext;
  let port: number | undefined;
  const shedding = Number(process.env.FUZZ_EVENT_LOOP_DELAY_MS ?? 0);
  beforeAll(async () => {
    // FUZZ_EVENT_LOOP_DELAY_MS turns load shedding on (e.g. 1000, the default of a server) to count its 503s.
    ctx = await createTestContext({ MAX_EVENT_LOOP_DELAY_MS: shedding }, 5);
    // The server builds its OpenAPI document right after start (main.ts); so does the test, so that a loaded
    // machine's first /docs/openapi.yaml does not count the build against the 5 s of a request.
    ctx.app.swagger();
    ctx.app.swagger({ yaml: true });
    // With load shedding on, requests come over a real socket (fuzz-transport.ts says why).
    if (shedding) port = await listenOnLoopback(ctx.app);
  });
  afterAll(async () => {
    closeSockets();
    await ctx?.close();
  });

  it('covers every endpoint of the contract, and routes outside it serve no API', () => {
    const routes = routesOf(ctx.app);
    const registered = new Set(routes.map((route) => `${route.method} ${route.url}`));
    const demoOnly = ['/iot/v1/simulator/attemptOpen'];
    expect(apiEndpoints.filter((e) => !registered.has(`${e.method} ${e.path}`) && !demoOnly.includes(e.path))).toEqual([]);
    const outside = routes.filter((route) => !route.endpoint).map((route) => route.url);
    expect(outside.filter((url) => /^\/(oauth|iot|v1|static)\//.test(url))).toEqual([]);
    expect(routes.length).toBeGreaterThan(50);
  });

  it(`answers ${REQUESTS} hostile requests (seed ${SEED}) without a 5xx, each within 5 s`, async () => {
    const result = await fuzzApp(ctx.app, { seed: SEED, numRuns: REQUESTS, port });
    console.log(`fuzz seed ${SEED} (${port === undefined ? 'in process' : 'over a socket'}): ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}, slowest ${result.slowestMs.toFixed(0)} ms`);
    expect(result.failures).toEqual([]);
    expect(result.requests).toBe(REQUESTS);
  }, Math.max(600_000, REQUESTS * 200));
});
