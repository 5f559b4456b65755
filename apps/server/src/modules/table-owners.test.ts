/**
 * One owner per table (ARCHITECTURE.md; docs/architecture.md "Rooms"): every table of the schema is
 * written (insert, update, delete) by the code of one module folder (`modules/<name>/`) only; other
 * modules, the gateway and the HTTP layer call that module. Writes are found in the source: drizzle's
 * `.insert(table)`, `.update(table)`, `.delete(table)` with a schema table, and SQL text
 * `insert into <table>`, `update <table> set`, `delete from <table>`. Code outside the modules may write only where OUTSIDE_WRITERS says why. A failure
 * names the table and every file writing it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..');

/** Files outside modules/ that write tables, and why (path relative to apps/server/src). */
const OUTSIDE_WRITERS: Record<string, string> = {
  'db/bootstrap.ts': 'the first start, before any module runs: the first administrator and data centre',
  'gateway/test-support.ts': 'test fixtures',
  'http/idempotency.ts': "the HTTP layer's own table of Idempotency-Key answers, which belong to no domain",
};
/** Rooms outside modules/ that may write: the demo's data (DEMO=on only). */
const OUTSIDE_ROOMS = ['demo/'];

/** Every .ts file under `dir` except tests. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Schema variable -> table name, from db/schema*.ts (`export const x = pgTable('name', ...)`). */
function schemaTables(): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of readdirSync(join(SOURCE, 'db')).filter((name) => /^schema.*\.ts$/.test(name))) {
    const text = readFileSync(join(SOURCE, 'db', file), 'utf8');
    for (const match of text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) tables.set(match[1] as string, match[2] as string);
  }
  return tables;
}

/** The tables `text` writes. */
function writtenTables(text: string, tables: Map<string, string>): Set<string> {
  const names = new Set(tables.values());
  const written = new Set<string>();
  for (const match of text.matchAll(/\.(?:insert|update|delete)\((\w+)\)/g)) {
    const table = tables.get(match[1] as string);
    if (table) written.add(table);
  }
  for (const match of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?(?:\s+as\s+\w+)?\s+(?:set|values|select|where|\(|using|returning)/gi)) {
    const table = (match[1] as string).toLowerCase();
    if (names.has(table)) written.add(table);
  }
  return written;
}

/** table -> writer (module name, or the file's path outside modules/) -> files. */
function writers(): Map<string, Map<string, string[]>> {
  const tables = schemaTables();
  const found = new Map<string, Map<string, string[]>>();
  for (const path of sources(SOURCE)) {
    const file = relative(SOURCE, path);
    if (file.startsWith('db/schema')) continue;
    const writer = file.startsWith('modules/') ? (file.split('/')[1] as string) : file;
    for (const table of writtenTables(readFileSync(path, 'utf8'), tables)) {
      const byWriter = found.get(table) ?? new Map<string, string[]>();
      byWriter.set(writer, [...(byWriter.get(writer) ?? []), file]);
      found.set(table, byWriter);
    }
  }
  return found;
}

describe('table owners', () => {
  const found = writers();

  it('finds the writes it checks (the scan is not blind)', () => {
    expect(found.get('locks')?.has('lockDevice')).toBe(true);
    expect(found.get('account_roles')?.size).toBeGreaterThan(0);
    expect(found.get('alerts')?.has('deviceAlert')).toBe(true);
  });

  it('has every table written by one module at most', () => {
    const shared = [...found].flatMap(([table, byWriter]) => {
      const modules = [...byWriter.keys()].filter((writer) => !writer.includes('/'));
      return modules.length > 1 ? [`${table}: ${modules.map((m) => `${m} (${byWriter.get(m)?.join(', ')})`).join('; ')}`] : [];
    });
    expect(shared).toEqual([]);
  });

  it('has code outside the modules write only where it says why', () => {
    const outside = [...found].flatMap(([table, byWriter]) => [...byWriter.keys()]
      .filter((writer) => writer.includes('/') && !(writer in OUTSIDE_WRITERS) && !OUTSIDE_ROOMS.some((room) => writer.startsWith(room)))
      .map((writer) => `${table}: ${writer}`));
    expect(outside).toEqual([]);
  });
});
