/**
 * Migration tests on a filled database: a copy of the migrations folder cut before one migration, so a
 * test can migrate up to it, fill the old tables, and then apply the rest.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
