/**
 * Migration tests on a filled database: a copy of the migrations folder cut before one migration, so a
 * test can migrate up to it, fill the old tables, and then apply the rest; the database so migrated,
 * and two data centres with a lock and an air switch each to fill it for.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { freshPostgresUrl, isPostgres } from './helper.js';

const MIGRATIONS = fileURLToPath(new URL('../src/db/migrations', import.meta.url));

/** A temporary copy of the migrations folder holding those before `tag` only; throws when `tag` is not the journal's. */
export function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'iot-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at <= 0) throw new Error(`no migration ${tag} after the first`);
  for (const entry of journal.entries.slice(at)) rmSync(join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

/**
 * A database of the run's kind (PostgreSQL or PGlite in memory) migrated up to just before `tag`; the
 * caller closes it and removes `folder`.
 */
export async function databaseBefore(tag: string): Promise<{ database: Database; folder: string }> {
  const folder = migrationsBefore(tag);
  const database = isPostgres ? await openDatabase({ databaseUrl: await freshPostgresUrl(), dataDir: '' }) : await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database, folder);
  return { database, folder };
}

/** Closes a database of databaseBefore and removes its migrations folder (either may be missing when the setup failed). */
export async function removeDatabaseBefore(database: Database | undefined, folder: string | undefined): Promise<void> {
  await database?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
}

/** The constraint that refused `statement`, or null when it passed. */
export function refusingConstraint(statement: Promise<unknown>): Promise<string | null | undefined> {
  return statement.then(() => null, (error: Error & { cause?: { constraint?: string } }) => error.cause?.constraint);
}

/**
 * Data centres 100 and 200, each with one lock (IMEI 86000000000<centre>) and one air switch (serial
 * AS00000<centre>), their last seq `lastSeq`; returns their ids by data centre.
 */
export async function twoDataCentres(database: Database, lastSeq = 0): Promise<{ lockOf: Map<number, number>; switchOf: Map<number, number> }> {
  const lockOf = new Map<number, number>();
  const switchOf = new Map<number, number>();
  await database.system.execute(sql`insert into tenants (id, name) values (100, 'A'), (200, 'B')`);
  // Before 0069 a device's secret hash was a column of its own row (since, the device registry's).
  const [own] = rowsOf<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from information_schema.columns
    where table_name = 'locks' and column_name = 'device_secret_hash'`));
  const secret = own?.n ? { column: sql`, device_secret_hash`, value: sql`, 'x'` } : { column: sql``, value: sql`` };
  for (const tenant of [100, 200]) {
    const [lock] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version, last_seq ${secret.column})
      values (${tenant}, ${`86000000000${tenant}`}, 'lock', 'ZG-N1', '1.0.0', ${lastSeq} ${secret.value}) returning id`));
    lockOf.set(tenant, lock?.id as number);
    const [box] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into air_switches (tenant_id, serial, name, model, last_seq ${secret.column})
      values (${tenant}, ${`AS00000${tenant}`}, 'box', 'ZG-AS4', ${lastSeq} ${secret.value}) returning id`));
    switchOf.set(tenant, box?.id as number);
  }
  return { lockOf, switchOf };
}
