/**
 * Test projects (npm test runs them all through scripts/test.mjs):
 * - unit: pure modules and in-process component tests (gateway, simulator, contract, web logic, the
 *   load generator's pure parts under bench/);
 * - api-pglite / api-postgres: the server's API tests, once on PGlite and once on a PostgreSQL the
 *   suite starts itself (test/postgres.ts);
 * - integration: real server processes: kill -9 durability, two instances sharing an external mosquitto,
 *   three behind HAProxy;
 * - e2e: Playwright (playwright-core + Debian chromium) against a started server.
 * Retries: a failed test runs once more (e2e: twice more) and the report marks it "(retry xN)". Three
 * clean-clone runs in a row (stops 36-38) went red on one timing flake each, a different test each time
 * (a browser wait of 15-20 s on a loaded machine, a simulated RSSI across a gate); a test that fails
 * for a reason still fails every attempt. Tests that create named rows stamp their names so an attempt
 * does not collide with the one before it.
 */
import { defineConfig } from 'vitest/config';

const api = (name: string, database: string) => ({
  test: {
    name,
    include: ['apps/server/test/**/*.test.ts'],
    // Errors (500s, failed jobs) reach the run's output: a flaky failure in CI says what threw.
    env: { TEST_DATABASE: database, TEST_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    retry: 1,
    // The files share one process (and its loaded modules) instead of re-importing the app per file:
    // about 6 s less per file, the API projects in half the time (stop 41: api-pglite 518 s instead of
    // about 1,100 s). Every file builds its own app on its own database; a file that changes
    // process-wide state (the tenant time-zone cache) puts it back in its afterAll.
    isolate: false,
    // Each starts the database server if needed and migrates one template database that every test
    // file copies (stop 41: about 4 s less per file on PGlite).
    globalSetup: database === 'postgres' ? ['apps/server/test/postgres-global.ts'] : ['apps/server/test/pglite-global.ts'],
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      api('api-pglite', 'pglite'),
      api('api-postgres', 'postgres'),
      {
        // Real server processes, Debian's mosquitto and a throw-away PostgreSQL (apps/server/integration).
        test: {
          name: 'integration',
          include: ['apps/server/integration/**/*.test.ts'],
          globalSetup: ['apps/server/test/postgres-global.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          retry: 1,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          retry: 2,
          fileParallelism: false,
          // A page under CI load may take more than vitest's default 1 s to show what it will show (a form's value
          // after its URL changed, CI run of stop 48): a poll for a state of the page waits up to 10 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
