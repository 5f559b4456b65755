/**
 * Applies the SQL migrations in ./migrations, once, under an advisory lock so that several server
 * instances starting together migrate only once.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.js';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7_140_001;

/**
 * Brings the schema up to date. Throws when a migration fails (nothing of it is kept). `folder`: the
 * migrations to apply instead of ./migrations (tests: a copy holding only the first ones).
 */
export async function migrateDatabase(database: Database, folder = migrationsFolder): Promise<void> {
  const options = { migrationsFolder: folder };
  if (database.kind === 'pglite') {
    await migratePglite(database.system as never, options);
    return;
  }
  await database.system.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await migratePg(database.system as never, options);
  } finally {
    await database.system.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}

/** True when every migration of ./migrations has been applied (readiness: GET /readyz). */
export async function migrationsApplied(database: Database): Promise<boolean> {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
  const result = await database.system.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const [row] = (result as unknown as { rows: { n: number }[] }).rows;
  return (row?.n ?? 0) >= journal.entries.length;
}
