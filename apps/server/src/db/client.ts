/**
 * Opens the database: PostgreSQL when `databaseUrl` is set, otherwise embedded PGlite in `dataDir`
 * (ARCHITECTURE.md "One process by default"). Same schema, same SQL, same migrations.
 *
 * - `system`: the owner connection, for migrations, the device gateway and sign-in (no tenant).
 * - `withTenant(tenantId, fn)`: runs `fn` in one transaction as role iot_app with app.tenant_id set,
 *   so row-level security confines every query to that tenant.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

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
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    system = drizzlePg(pool, { schema }) as unknown as Db;
    close = () => pool.end();
    kind = 'postgres';
  } else {
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    const client = await PGlite.create(options.dataDir);
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
  return { kind, system, withTenant, transaction, close };
}
