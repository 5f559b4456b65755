/**
 * Applies the SQL migrations in ./migrations, once, under an advisory lock so that several server
 * instances starting together migrate only once.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.js';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7_140_001;

/** Brings the schema up to date. Throws when a migration fails (nothing of it is kept). */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.system as never, { migrationsFolder });
    return;
  }
  await database.system.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await migratePg(database.system as never, { migrationsFolder });
  } finally {
    await database.system.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}
