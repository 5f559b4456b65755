/**
 * Opens the database: PostgreSQL when `databaseUrl` is set, otherwise embedded PGlite in `dataDir`
 * (ARCHITECTURE.md "One process by default"). Same schema, same SQL, same migrations.
 *
 * - `system`: the owner connection, for migrations, the device gateway and sign-in (no tenant).
 * - `withTenant(tenantId, fn)`: runs `fn` in one transaction as role iot_app with app.tenant_id set,
 *   so row-level security confines every query to that tenant.
 * - `readTenant(tenantId, fn)`: the same confinement for a handler that only reads; on PostgreSQL it
 *   runs without a transaction on a read-only pool (tenant-reader.ts), on PGlite in a read-only transaction.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';
import { openTenantReader } from './tenant-reader.js';

/** Connections of the owner pool (gateway, sign-in, writes) and of the tenant read pool, PostgreSQL only. */
const POOL_MAX = 10;
const READ_POOL_MAX = 10;

export type Schema = typeof schema;
/** The owner connection. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... ; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for an in-memory database. */
  dataDir: string;
}

/** Opens (and creates, for PGlite) the database. Does not migrate. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let system: Db;
  let close: () => Promise<void>;
  let kind: Database['kind'];
  let readTenant: Database['readTenant'] | undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POOL_MAX });
    const reader = openTenantReader(options.databaseUrl, READ_POOL_MAX);
    system = drizzlePg(pool, { schema }) as unknown as Db;
    readTenant = (tenantId, fn) => reader.read(tenantId, fn);
    close = async () => {
      await Promise.all([pool.end(), reader.close()]);
    };
    kind = 'postgres';
  } else {
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    // pg_trgm: the lock keyword search's trigram indexes (migration 0029).
    const client = await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
    system = drizzlePglite(client, { schema }) as unknown as Db;
    close = () => client.close();
    kind = 'pglite';
  }
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
  return { kind, system, withTenant, readTenant: readTenant ?? readInTransaction, transaction, close };
}
