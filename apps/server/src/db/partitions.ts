/**
 * Time-partitioned append-only tables (docs/partitions.md): each is partitioned by range of a
 * timestamptz column into one partition per UTC day, `<table>_pYYYYMMDD`, plus `<table>_default` for
 * rows outside them (never lost). The SQL functions app_ensure_daily_partitions and
 * app_copy_row_security come from migration 0063_heartbeat_partitions.sql. To partition another table:
 * convert it in a migration as 0063 and 0064 do, then add it to PARTITIONED_TABLES.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { rowCount, rowsOf } from './rows.js';

/** One partitioned table: its name, partition key column, and how many days ahead to keep. */
export interface PartitionedTable {
  table: string;
  /** The table queries name when `table` is one kind's subtree of a log partitioned by kind (`uplinks`). */
  of?: string;
  keyColumn: string;
  /** Partitions are created for today (UTC) and this many days after it. */
  aheadDays: number;
}

/** The tables the partition job maintains. */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'heartbeats', keyColumn: 'received_at', aheadDays: 7 },
  { table: 'lock_uplinks', of: 'uplinks', keyColumn: 'received_at', aheadDays: 7 },
  { table: 'open_records', keyColumn: 'received_at', aheadDays: 7 },
  { table: 'audit_log', keyColumn: 'created_at', aheadDays: 7 },
  { table: 'air_switch_uplinks', of: 'uplinks', keyColumn: 'received_at', aheadDays: 7 },
];

const DAY_MS = 86_400_000;

/** The UTC day of `time` as YYYY-MM-DD. */
function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/**
 * Creates the missing daily partitions of `spec.table` from the UTC day of `now` to `aheadDays` after;
 * returns how many it created (0 when all exist, so it is safe to run at any time and from several
 * instances: a concurrent creator fails on the duplicate name and the next run finds it). Rows of such
 * a day sitting in the default partition move into the new one.
 */
export async function ensurePartitions(db: Executor, spec: PartitionedTable, now = new Date()): Promise<number> {
  const first = utcDay(now);
  const last = utcDay(new Date(now.getTime() + spec.aheadDays * DAY_MS));
  const [row] = rowsOf<{ made: number }>(await db.execute(sql`
    select app_ensure_daily_partitions(${spec.table}::regclass, ${spec.keyColumn}, ${first}::date, ${last}::date) as made`));
  return Number(row?.made ?? 0);
}

/** One daily partition: its name and the UTC day it holds (start inclusive, end exclusive). */
export interface DailyPartition {
  name: string;
  start: Date;
  end: Date;
}

/** The daily partitions of `table`, oldest first (the default partition is not one of them). */
export async function dailyPartitions(db: Executor, table: string): Promise<DailyPartition[]> {
  const rows = rowsOf<{ name: string }>(await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by c.relname`));
  const pattern = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`);
  const out: DailyPartition[] = [];
  for (const { name } of rows) {
    const match = pattern.exec(name);
    if (!match) continue;
    const start = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
    out.push({ name, start, end: new Date(start.getTime() + DAY_MS) });
  }
  return out;
}

/**
 * Drops the daily partitions of `table` that hold only rows older than `cutoff` (their day ends at or
 * before it); returns their names. Each drop is its own statement: it locks the parent only briefly.
 * Rows older than the cutoff in the boundary day or the default partition are the caller's to delete.
 */
export async function dropPartitionsBefore(db: Executor, table: string, cutoff: Date): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await dailyPartitions(db, table)) {
    if (partition.end.getTime() > cutoff.getTime()) break;
    await db.execute(sql.raw(`drop table if exists "${partition.name}"`));
    dropped.push(partition.name);
  }
  return dropped;
}

/** Bounds of deleteRowsBefore: rows per delete statement (default 5000), statements per call (default 200). */
export interface RowDeleteOptions {
  batchSize?: number;
  maxBatches?: number;
}

/**
 * Deletes the rows of `spec.table` whose key is more than `days` days before now, in bounded batches
 * (each its own short statement, at most maxBatches x batchSize rows; the next call continues): what
 * dropPartitionsBefore left (the boundary day, the default partition). The table's primary key must be
 * (id, key), as every table of PARTITIONED_TABLES has. Returns how many rows went.
 */
export async function deleteRowsBefore(db: Executor, spec: Pick<PartitionedTable, 'table' | 'keyColumn'>, days: number,
  options: RowDeleteOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 5000;
  const table = sql.identifier(spec.table);
  const key = sql.identifier(spec.keyColumn);
  let deleted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 200); batch++) {
    // The outer range prunes the partitions the batch can be in.
    const n = rowCount(await db.execute(sql`
      delete from ${table} where ${key} < now() - make_interval(days => ${days}) and (id, ${key}) in (
        select id, ${key} from ${table} where ${key} < now() - make_interval(days => ${days}) limit ${batchSize})
      returning 1`));
    deleted += n;
    if (n < batchSize) break;
    await new Promise((resolve) => setImmediate(resolve)); // let ingest use the connection between batches
  }
  return deleted;
}

/**
 * A partitioned log's retention: drops its daily partitions older than `days` days (now from the
 * database's clock), then deletes the older rows left over (deleteRowsBefore). Returns the dropped
 * partitions' names and the number of rows deleted.
 */
export async function pruneLog(db: Executor, spec: Pick<PartitionedTable, 'table' | 'keyColumn'>, days: number,
  options: RowDeleteOptions = {}): Promise<{ dropped: string[]; deleted: number }> {
  const [row] = rowsOf<{ cutoff: Date | string }>(await db.execute(sql`select now() - make_interval(days => ${days}) as cutoff`));
  const dropped = await dropPartitionsBefore(db, spec.table, new Date(row?.cutoff ?? 0));
  return { dropped, deleted: await deleteRowsBefore(db, spec, days, options) };
}
