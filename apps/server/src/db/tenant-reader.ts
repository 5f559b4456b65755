/**
 * Tenant-scoped reads on PostgreSQL without a transaction.
 *
 * A read used to cost four round trips around its query: BEGIN, set_config(tenant, role), the query,
 * COMMIT. Here a second, small pool keeps connections that are already the row-level-security role
 * `iot_app`, read-only (`default_transaction_read_only`), and remember which tenant they are set to:
 * a request checks one out, sets `app.tenant_id` only when the connection was last used for another
 * tenant (session level, one round trip), and runs its statements in autocommit. READ COMMITTED gives
 * each statement its own snapshot inside a transaction too, so a read loses no consistency.
 *
 * Safety: these connections never serve the owner (`system`) or a write; a failed set-up destroys the
 * connection instead of returning it to the pool, so no query ever runs with a stale or missing tenant.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './client.js';

/**
 * How long a pooled PostgreSQL connection may sit idle before it is closed, ms (15 min; pg's default is
 * 10 s). Longer than the workers' safety sweep (5 min), so an idle server's sweeps reuse connections
 * instead of starting a backend process each time (PostgreSQL forks one per connection: on an idle
 * server that churn cost more CPU than the queries; bench/idle.ts).
 */
export const POOL_IDLE_MS = 15 * 60_000;

/**
 * How long a pooled PostgreSQL connection lives before the pool closes it (once idle), s (1 h). Named
 * statements (db/prepared.ts) stay prepared for a connection's life, and the recent-first log reads
 * (modules/deviceLog/recent.ts) prepare new ones every UTC day: without an end, a busy server's
 * connections, never idle for POOL_IDLE_MS, would keep every day's statements and their plans. A new
 * connection prepares what it uses again, once.
 */
export const POOL_LIFETIME_S = 3600;

/**
 * Session settings of every PostgreSQL connection (the startup packet's `options`): no JIT compilation.
 * The platform's queries are short; at 100 million heartbeats a data centre's first page (17 ms of
 * work) crossed jit_above_cost through its estimate over 90 day partitions, and PostgreSQL spent 610 ms
 * compiling it (bench/RESULTS.md, the 100 M heartbeat run).
 */
export const SESSION_OPTIONS = '-c jit=off';

interface ReaderState {
  db: Db;
  /** Tenant the connection's session is set to; undefined before the first set-up. */
  tenantId?: number;
}

export interface TenantReader {
  /** Runs `fn` with a connection confined to `tenantId` (read-only; a write fails with SQLSTATE 25006). */
  read<T>(tenantId: number, fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Opens the reader pool of at most `max` connections to `connectionString` (`logger`: drizzle's query logger, tests). */
export function openTenantReader(connectionString: string, max: number, logger?: { logQuery(query: string, params: unknown[]): void }): TenantReader {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: POOL_IDLE_MS, maxLifetimeSeconds: POOL_LIFETIME_S, options: SESSION_OPTIONS });
  const states = new WeakMap<pg.PoolClient, ReaderState>();
  return {
    async read(tenantId, fn) {
      const client = await pool.connect();
      let state = states.get(client);
      try {
        if (!state) {
          state = { db: drizzle(client, { logger }) as unknown as Db };
          states.set(client, state);
        }
        if (state.tenantId !== tenantId) {
          state.tenantId = undefined; // not trusted until the set-up below has answered
          await client.query(
            `select set_config('role', 'iot_app', false), set_config('default_transaction_read_only', 'on', false),
              set_config('app.tenant_id', $1, false)`,
            [String(tenantId)],
          );
          state.tenantId = tenantId;
        }
      } catch (error) {
        client.release(error as Error); // destroyed, never reused
        throw error;
      }
      try {
        const result = await fn(state.db);
        client.release();
        return result;
      } catch (error) {
        // A connection-level failure (not a query error) makes the connection unusable: drop it.
        const broken = !(error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string');
        client.release(broken ? (error as Error) : undefined);
        throw error;
      }
    },
    close: () => pool.end(),
  };
}
