/**
 * The backup-code job (docs/stays.md "Backup codes"): each pass retires the issued backup
 * codes whose time has come (issue.ts retireIfDue: the guest's own code 正常 on that lock, or the stay
 * no longer holds the door), issues backup codes by rule in the data centres that turned it on (auto.ts:
 * at check-in and while checked in, each door still waiting for the guest's code) and tops up the pools (pool.ts) of the locks in rooms, so a lock asleep at
 * check-in has codes ready: a sleeping lock takes new entries only at a wake, so they are installed in
 * advance. It sleeps until a stay changes (`stay.changed`), a lock user or credential settles
 * (`credential.sync` normal or deleted: a door became ready, an entry was deleted) or a lock changes
 * (`lock.changed`: e.g. given a room), with a safety sweep every SAFETY_SWEEP_MS. A woken pass tops up
 * only the locks those events named; the sweep looks at every lock. A pass adds at most
 * FILL_ENTRIES_PER_PASS entries and asks for the next pass a second later when there is more to do.
 * A lock whose fill fails (slots full, queue full, ...) is logged and left alone for SAFETY_SWEEP_MS.
 * Every code and every entry is handled in its own tenant transaction; the credential operations are
 * logged as `system:backupCodes`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BACKUP_CODE_JOB_USERNAME } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import { SAFETY_SWEEP_MS } from '../../config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { backupCodes, credentials, lockUsers, stayDoors, stays } from '../../db/schema.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';
import { autoIssueBackupCodes, autoIssueCandidates } from './auto.js';
import { fillPool, shortPools } from './pool.js';
import { retireIfDue } from './issue.js';

/** Who the credential operations, the automatic issues and their system-log rows of the job name. */
const JOB_USERNAME = BACKUP_CODE_JOB_USERNAME;
/**
 * Pool entries added per pass, each in its own transaction with a turn of the event loop between two: a
 * pass that uses them all asks for the next a second later (the loop's shortest sleep). An entry is
 * about 40 queries (a lock user and a password through the credential service); on PGlite, which
 * answers in this thread, a first start over a whole fleet must not hold requests and uplinks.
 */
const FILL_ENTRIES_PER_PASS = 5;
type Log = { warn(fields: object, message?: string): void };

export interface BackupCodePass {
  /** Only these locks are topped up (a woken pass); undefined: every lock (a sweep). */
  locks?: readonly number[];
  /** Locks not to try (their fill failed recently). */
  except?: readonly number[];
  /** Called with a lock whose fill failed. */
  failed?(lockId: number): void;
  now?: number;
}

/**
 * Issued codes that may be due (owner connection): the stay is not checked in, or no door it holds on
 * that lock is still on its way (issue.ts decides exactly, in the tenant's transaction).
 */
async function dueCodes(database: Database) {
  const unready = database.system.select({ one: sql`1` }).from(stayDoors)
    .leftJoin(lockUsers, eq(lockUsers.id, stayDoors.lockUserId)).leftJoin(credentials, eq(credentials.id, stayDoors.credentialId))
    .where(and(eq(stayDoors.stayId, backupCodes.stayId), eq(stayDoors.lockId, backupCodes.lockId), sql`${stayDoors.releasedAt} is null`,
      sql`not coalesce(${lockUsers.syncState} = 'normal' and ${lockUsers.status} = 'normal' and ${credentials.syncState} = 'normal', false)`));
  return database.system.select({ id: backupCodes.id, tenantId: backupCodes.tenantId }).from(backupCodes).innerJoin(stays, eq(stays.id, backupCodes.stayId))
    .where(and(eq(backupCodes.state, 'issued'), sql`(${stays.state} <> 'CHECKED_IN' or not exists (${unready}))`)).orderBy(backupCodes.id);
}

/** One pass (see the module comment); returns ms until the next pass is wanted (undefined: none). */
export async function runBackupCodes(database: Database, box: SecretBox, log: Log, pass: BackupCodePass = {}): Promise<number | undefined> {
  const now = pass.now ?? Date.now();
  const emptied = new Set<number>();
  for (const code of await dueCodes(database)) {
    const lockId = await database.withTenant(code.tenantId, (tx) => retireIfDue(tx, { tenantId: code.tenantId, username: JOB_USERNAME, box }, code.id, now))
      .catch((error) => log.warn({ err: error, backupCodeId: code.id }, 'backup code not retired; tried again at the next pass'));
    if (lockId !== undefined) emptied.add(lockId);
    await nextTurn();
  }
  for (const stay of await autoIssueCandidates(database)) {
    const issued = await database.withTenant(stay.tenantId, (tx) => autoIssueBackupCodes(tx, stay.tenantId, JOB_USERNAME, stay.id, now))
      .catch((error) => log.warn({ err: error, stayId: stay.id }, 'backup codes not issued by rule; tried again at the next pass'));
    for (const lockId of issued ?? []) emptied.add(lockId);
    await nextTurn();
  }
  const only = pass.locks === undefined ? undefined : [...new Set([...pass.locks, ...emptied])];
  if (only?.length === 0) return undefined;
  const short = await shortPools(database, { ...(only ? { only } : {}), ...(pass.except ? { except: pass.except } : {}), limit: FILL_ENTRIES_PER_PASS });
  let budget = FILL_ENTRIES_PER_PASS;
  for (const lock of short) {
    const actor = { tenantId: lock.tenantId, username: JOB_USERNAME, box };
    for (let added = 1; added > 0 && budget > 0; budget -= added) {
      added = await database.withTenant(lock.tenantId, (tx) => fillPool(tx, actor, lock.lockId, lock.size, 1)).catch((error) => {
        pass.failed?.(lock.lockId);
        log.warn({ err: error, lockId: lock.lockId }, 'backup codes not added; tried again at the next sweep');
        return 0;
      });
      // Requests and uplinks go first between two entries (PGlite answers in this thread).
      await nextTurn();
    }
    if (budget === 0) return 0;
  }
  return short.length === FILL_ENTRIES_PER_PASS ? 0 : undefined;
}

/** Starts the job's loop on `database`. */
export function startBackupCodeJob(database: Database, box: SecretBox, log: Log): StartedJob {
  /** Locks named by events since the last pass. */
  let named = new Set<number>();
  /** Locks whose fill failed, and until when they are left alone (a safety sweep's period). */
  const failing = new Map<number, number>();
  const loop = startWorkerLoop({
    name: 'backupCodes', safetyMs: SAFETY_SWEEP_MS, minDelayMs: 1000, log,
    run: (due) => {
      const locks = [...named];
      named = new Set();
      const now = Date.now();
      for (const [lockId, until] of failing) if (until <= now) failing.delete(lockId);
      return runBackupCodes(database, box, log, {
        ...(due ? {} : { locks }), except: [...failing.keys()], failed: (lockId) => failing.set(lockId, Date.now() + SAFETY_SWEEP_MS),
      });
    },
  });
  const name = (lockId: number) => {
    named.add(lockId);
    loop.wake();
  };
  const stops = [
    database.events.on('stay.changed', () => loop.wake()),
    database.events.on('credential.sync', ({ lockId, state }) => { if (state === 'normal' || state === 'deleted') name(lockId); }),
    database.events.on('lock.changed', ({ lockId }) => name(lockId)),
    database.events.onResync(() => loop.dueIn(0)),
  ];
  return {
    async stop() {
      for (const stop of stops) stop();
      await loop.close();
    },
  };
}
