/**
 * No busy polling: a server with every background job running (DEMO=off, no device, no
 * data) makes no database query for 20 s once it has started. The clock is controlled: the app is
 * built under fake timers (setTimeout/setInterval; real I/O goes on), so 20 s pass in a moment, and
 * every worker's timer that would fire within them does. Queries are counted through the database
 * handle's query hook (db/client.ts `onQuery`). The safety sweeps (default 30 s, longer than the
 * window anyway) are set to 60 s here, so that the window, which starts when start-up has gone
 * quiet, cannot meet the first one whatever the machine's speed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { freshPostgresUrl, isPostgres, skipSuite } from './helper.js';

/** The real setTimeout, kept before the timers are faked. */
const realSetTimeout = setTimeout;
/** Lets real I/O (sockets, PGlite) run between fake timer steps, 5 ms of real time too (a loaded machine's database answers late). */
const realTurns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => realSetTimeout(resolve, 5));
};

/** Advances the fake clock by `ms` in 250 ms steps, letting real I/O run between them. */
async function advance(ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 250) {
    await vi.advanceTimersByTimeAsync(250);
    await realTurns();
  }
}

describe.skipIf(skipSuite)('idle background jobs', () => {
  let app: FastifyInstance | undefined;
  let database: Database | undefined;
  const queries: string[] = [];

  afterAll(async () => {
    vi.useRealTimers();
    await app?.close();
    await database?.close();
  });

  it('make no query for 20 s when there is nothing to do', { timeout: 120_000 }, async () => {
    let url: string | undefined;
    if (isPostgres) {
      url = await freshPostgresUrl();
    }
    database = await openDatabase({ databaseUrl: url, dataDir: 'memory://', onQuery: (query) => { queries.push(query); } });
    await migrateDatabase(database);
    const config = loadConfig({}, {
      DEMO: false, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', MAX_EVENT_LOOP_DELAY_MS: 0, HOST: '127.0.0.1', MQTT_PORT: 0, PORT: 0, DATA_DIR: 'memory://',
      COMMAND_SWEEP_MS: 60_000, PUSH_POLL_MS: 60_000, ANALYSIS_SNAPSHOT_MS: 1000,
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    app = await buildApp({ config, database, jobs: 'all' });
    await app.ready();
    // Start-up: the first sweeps and the analysis's catch-up run (ANALYSIS_SNAPSHOT_MS after start, 1 s
    // here, so that it does not hold the first requests); over once 2 s pass without a query.
    let seen = -1;
    for (let rounds = 0; seen !== queries.length; rounds++) {
      if (rounds > 100) throw new Error('the jobs never went quiet');
      seen = queries.length;
      await advance(2000);
    }
    const quiet = queries.length;
    await advance(20_000);
    expect(queries.slice(quiet)).toEqual([]);
  });
});
