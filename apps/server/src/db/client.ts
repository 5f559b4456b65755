/**
 * Opens the database: PostgreSQL when `databaseUrl` is set, otherwise embedded PGlite in `dataDir`
 * (ARCHITECTURE.md "One process by default"). Same schema, same SQL, same migrations.
 *
 * - `system`: the owner connection, for migrations, the device gateway and sign-in (no tenant).
 * - `withTenant(tenantId, fn)`: runs `fn` in one transaction as role iot_app with app.tenant_id set,
 *   so row-level security confines every query to that tenant.
 * - `readTenant(tenantId, fn)`: the same confinement for a handler that only reads; on PostgreSQL it
 *   runs without a transaction on a read-only pool (tenant-reader.ts), on PGlite in a read-only transaction.
 * - `events`: the handle's event bus (events/bus.ts). Every top-level transaction of the handle
 *   (`transaction`, `withTenant`, `system.transaction`) sends the domain events emitted in it just
 *   before it commits and hands them to the bus's subscribers once it has committed (events/emit.ts).
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type BusLog, createEventBus, type EventBus, type NotificationSource } from '../events/bus.js';
import { inTransactionWithEvents } from '../events/emit.js';
import { pgliteSource, postgresSource } from '../events/listener.js';
import { openTenantReader, POOL_IDLE_MS, POOL_LIFETIME_S, SESSION_OPTIONS } from './tenant-reader.js';

/** Connections of the owner pool (gateway, sign-in, writes) and of the tenant read pool, PostgreSQL only. */
const POOL_MAX = 10;
const READ_POOL_MAX = 10;

/**
 * The owner connection. Built without drizzle's relational schema: nothing here uses `db.query.*`,
 * and with it drizzle built a query builder for each of the schema's tables on every transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
/** A transaction handle. */
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Anything queries can run on. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  system: Db;
  withTenant<T>(tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `fn`, which only reads, confined to the tenant (writes in it fail on PostgreSQL). */
  readTenant<T>(tenantId: number, fn: (db: Executor) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction on the owner connection. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Domain events: subscribe here; emit with events/emit.ts in the transaction making the change. */
  events: EventBus;
  /** Stops the event listener, then closes the connections. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... ; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for an in-memory database. */
  dataDir: string;
  /**
   * PGlite only: start from this dump of a data directory (PGlite's `dumpDataDir` tarball) instead of
   * an empty one. The API tests start every file from one migrated dump (test/pglite-global.ts): about
   * 1 s instead of 4 s of initdb and migrations.
   */
  loadDataDir?: Blob;
  /** Where the event bus reports handler failures and listener reconnects (default: JSON lines on stderr). */
  log?: BusLog;
  /** Called with each statement's SQL text run through drizzle (tests count queries with it). */
  onQuery?: (query: string) => void;
}

const stderrLog: BusLog = {
  warn: (fields, message) => process.stderr.write(`${JSON.stringify({ level: 'warn', ...fields, msg: message })}\n`),
};

/** Opens (and creates, for PGlite) the database. Does not migrate. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let system: Db;
  let close: () => Promise<void>;
  let kind: Database['kind'];
  let readTenant: Database['readTenant'] | undefined;
  let source: NotificationSource;
  const log = options.log ?? stderrLog;
  const logger = options.onQuery ? { logQuery: options.onQuery } : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl, max: POOL_MAX, idleTimeoutMillis: POOL_IDLE_MS, maxLifetimeSeconds: POOL_LIFETIME_S, options: SESSION_OPTIONS,
    });
    const reader = openTenantReader(options.databaseUrl, READ_POOL_MAX, logger);
    system = drizzlePg(pool, { logger }) as unknown as Db;
    source = postgresSource(options.databaseUrl, log);
    readTenant = (tenantId, fn) => reader.read(tenantId, fn);
    close = async () => {
      await Promise.all([pool.end(), reader.close()]);
    };
    kind = 'postgres';
  } else {
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    // pg_trgm: the lock keyword search's trigram indexes (migration 0029).
    const client = await PGlite.create(options.dataDir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
    system = drizzlePglite(client, { logger }) as unknown as Db;
    close = () => client.close();
    source = pgliteSource(client);
    kind = 'pglite';
  }
  const events = createEventBus(source, log);
  deliverEventsOnCommit(system, events);
  const transaction = <T>(fn: (tx: Tx) => Promise<T>) => system.transaction(fn);
  const withTenant = <T>(tenantId: number, fn: (tx: Tx) => Promise<T>) =>
    system.transaction(async (tx) => {
      // One round trip for both (as PostgREST does): set_config('role', ..., true) is SET LOCAL ROLE.
      await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true), set_config('role', 'iot_app', true)`);
      return fn(tx);
    });
  // PGlite: one connection, so a read keeps its transaction (nothing else may change the session's
  // tenant meanwhile) and is made read-only in the same round trip.
  const readInTransaction: Database['readTenant'] = (tenantId, fn) =>
    system.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true), set_config('role', 'iot_app', true),
        set_config('transaction_read_only', 'on', true)`);
      return fn(tx);
    });
  const closeAll = async () => {
    await events.close();
    await close();
  };
  return { kind, system, withTenant, readTenant: readTenant ?? readInTransaction, transaction, events, close: closeAll };
}

/**
 * Makes every top-level transaction of `system` carry its domain events (events/emit.ts): sent
 * before the commit, delivered to `events`' subscribers after it. Nested transactions (savepoints)
 * are drizzle's own and emit at once.
 */
function deliverEventsOnCommit(system: Db, events: EventBus): void {
  const begin = system.transaction.bind(system);
  system.transaction = (async (fn: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) => {
    let deliver: (() => void) | undefined;
    const value = await begin(async (tx) => {
      const done = await inTransactionWithEvents(tx, events, fn);
      deliver = done.deliver;
      return done.value;
    }, config);
    deliver?.();
    return value;
  }) as Db['transaction'];
}
