/**
 * The stays job of bench/stays.ts (apps/server/src/modules/stay/job.ts `runStays`), in a process of
 * its own as a second instance of the platform would run it (the server's events reach it through
 * PostgreSQL's NOTIFY), with its clock compressed: `now` = v0 + speed x (Date.now() - t0), so an hour
 * of check-ins and the lead time before them pass in minutes. It wakes as the production loop does (a
 * stay changed, a lock user's command settled, the next due time, scaled). IPC: parent -> { databaseUrl,
 * dataDir, speed } to start, { t0, v0 } to (re)set the clock, 'pause' (no pass without a clock), 'stop';
 * child -> { passes, notReady } (stay.notReady events it raised) on stop.
 */
import { SAFETY_SWEEP_MS } from '../apps/server/src/config.js';
import { secretBoxFor } from '../apps/server/src/crypto/secret-box.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { startWorkerLoop } from '../apps/server/src/jobs/loop.js';
import { runStays } from '../apps/server/src/modules/stay/job.js';

interface Start { databaseUrl: string; dataDir: string; speed: number }
type Clock = { t0: number; v0: number };

const start = await new Promise<Start>((resolve) => process.once('message', (m) => resolve(m as Start)));
const database = await openDatabase({ databaseUrl: start.databaseUrl, dataDir: '' });
const box = secretBoxFor({ DATA_DIR: start.dataDir });
const log = { warn: (fields: object, message?: string) => console.warn('stays job:', message, JSON.stringify(fields).slice(0, 500)) };
let clock: Clock | undefined;
let passes = 0;
let notReady = 0;
const loop = startWorkerLoop({
  name: 'stays-bench', safetyMs: SAFETY_SWEEP_MS / start.speed, minDelayMs: 1000 / start.speed, log, firstRunMs: 3600_000,
  run: async () => {
    if (!clock) return undefined;
    passes++;
    const due = await runStays(database, box, log, clock.v0 + start.speed * (Date.now() - clock.t0));
    return due === undefined ? undefined : due / start.speed;
  },
});
database.events.on('stay.notReady', () => { notReady++; });
database.events.on('stay.changed', () => loop.wake());
database.events.on('credential.sync', ({ subject, state }) => { if (subject === 'user' && !['adding', 'modifying', 'deleting'].includes(state)) loop.wake(); });
process.on('message', (m) => {
  if (m === 'pause') clock = undefined;
  else if (m === 'stop') {
    void loop.close().then(async () => {
      process.send?.({ passes, notReady });
      await database.close();
      process.exit(0);
    });
  } else {
    clock = m as Clock;
    void loop.sweepNow();
  }
});
process.send?.({ started: true });
