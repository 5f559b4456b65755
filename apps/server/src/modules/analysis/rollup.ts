/**
 * Rollups (tables in db/schema-analysis.ts, written only here): the raw tables `heartbeats`,
 * `open_records` and `alerts` are counted into per-tenant-hour, per-tenant-day and per-lock-day counters
 * by a periodic job (runRollups), whatever wrote the rows (the gateway, a seed, an import).
 *
 * Exactly once, on any number of server instances: each source has a cursor row (analysis_cursors)
 * locked `for update skip locked` (another instance's run skips it). Rows with id <= watermark are
 * counted. Ids are not committed in order, so a run first records the highest id it sees (pending_max)
 * with the transaction horizon after it (pending_xmax); a later run counts up to pending_max only once
 * no transaction older than that horizon is still running (pg_snapshot_xmin), so every row with a
 * smaller id that will ever commit has committed. A long transaction (a bulk seed) holds the cursor back
 * until it ends, and is then counted. Counting a range and moving the watermark are one transaction.
 *
 * An event belongs to the hour and day of its own time (device clock: heartbeat ts, unlock lockTime;
 * alert first_at), so a late uplink adds to the earlier hour it belongs to. A device clock more than
 * 7 days behind or 5 minutes ahead of the server is not believed: the receive time is used.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/** Ids counted per transaction. */
const CHUNK = 50_000;

const clamp = (deviceTime: SQL, received: SQL) => sql`case when ${deviceTime} between ${received} - interval '7 days' and ${received} + interval '5 minutes' then ${deviceTime} else ${received} end`;

/** The raw tables rolled up: each yields (tenant_id, lock_id, at, metric, v) per row in (from, to]. */
const SOURCES = {
  heartbeats: (from: number, to: number) => sql`
    select h.tenant_id, h.lock_id, ${clamp(sql`h.device_ts`, sql`h.received_at`)} as at, m.metric, m.v
    from heartbeats h cross join lateral (values ('heartbeat', null::int), ('battery', h.battery), ('rssi', h.rssi)) as m(metric, v)
    where h.id > ${from} and h.id <= ${to}`,
  open_records: (from: number, to: number) => sql`
    select o.tenant_id, o.lock_id, ${clamp(sql`o.lock_time`, sql`o.received_at`)} as at,
      case when o.success then 'unlock.' || o.method else 'unlock_failed' end as metric, null::int as v
    from open_records o where o.id > ${from} and o.id <= ${to}`,
  alerts: (from: number, to: number) => sql`
    select a.tenant_id, a.lock_id, a.first_at as at, m.metric, null::int as v
    from alerts a cross join lateral (values ('alarm'), ('alarm.' || a.kind)) as m(metric)
    where a.id > ${from} and a.id <= ${to} and a.device_kind = 'lock'`,
} as const;
export type RollupSource = keyof typeof SOURCES;

const merge = sql.raw(`n = t.n + excluded.n, sum = t.sum + excluded.sum, min = least(t.min, excluded.min), max = greatest(t.max, excluded.max)`);

/** Adds the events of `events` to the three rollup tables, one statement; days are those of each data centre's time zone. */
async function addEvents(tx: Tx, events: SQL): Promise<void> {
  const day = sql.raw('local_day');
  await tx.execute(sql`
    with ev as materialized (select e.*, (e.at at time zone z.time_zone)::date as local_day from (${events}) e join tenants z on z.id = e.tenant_id),
    hour_up as (
      insert into analysis_tenant_hour as t (tenant_id, hour, metric, n, sum, min, max)
      select tenant_id, date_trunc('hour', at), metric, count(*), coalesce(sum(v), 0), min(v), max(v) from ev group by 1, 2, 3
      on conflict (tenant_id, hour, metric) do update set ${merge}
      returning 1),
    lock_up as (
      insert into analysis_lock_day as t (tenant_id, lock_id, day, metric, n, sum, min, max)
      select tenant_id, lock_id, ${day}, metric, count(*), coalesce(sum(v), 0), min(v), max(v) from ev group by 1, 2, 3, 4
      on conflict (lock_id, day, metric) do update set ${merge}
      returning t.tenant_id, t.day, t.metric, (t.xmax::text = '0') as inserted)
    insert into analysis_tenant_day as t (tenant_id, day, metric, n, sum, min, max)
    select tenant_id, ${day}, metric, count(*), coalesce(sum(v), 0), min(v), max(v) from ev group by 1, 2, 3
    union all
    select tenant_id, day, 'reporting', count(*), 0, null, null from lock_up where inserted and metric = 'heartbeat' group by 1, 2
    on conflict (tenant_id, day, metric) do update set ${merge}`);
}

type StepResult = 'counted' | 'seen' | 'idle' | 'waiting' | 'busy';

/** One step of one source's cursor (see the module comment), in one transaction. */
async function step(database: Database, source: RollupSource): Promise<StepResult> {
  return database.transaction(async (tx) => {
    // Before this transaction takes an xid: the oldest transaction still running.
    const [{ horizon }] = rowsOf<{ horizon: string }>(await tx.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`)) as [{ horizon: string }];
    await tx.execute(sql`insert into analysis_cursors (source) values (${source}) on conflict do nothing`);
    const [cursor] = rowsOf<{ watermark: string; pendingMax: string; pendingXmax: string }>(await tx.execute(sql`
      select watermark, pending_max as "pendingMax", pending_xmax as "pendingXmax" from analysis_cursors where source = ${source} for update skip locked`));
    if (!cursor) return 'busy';
    const watermark = Number(cursor.watermark);
    const pendingMax = Number(cursor.pendingMax);
    if (pendingMax > watermark) {
      if (BigInt(horizon) < BigInt(cursor.pendingXmax)) return 'waiting';
      const upTo = Math.min(pendingMax, watermark + CHUNK);
      await addEvents(tx, SOURCES[source](watermark, upTo));
      await tx.execute(sql`update analysis_cursors set watermark = ${upTo}, updated_at = now() where source = ${source}`);
      return 'counted';
    }
    const [{ max }] = rowsOf<{ max: string }>(await tx.execute(sql`select coalesce(max(id), 0)::text as max from ${sql.identifier(source)}`)) as [{ max: string }];
    if (Number(max) <= watermark) return 'idle';
    // After reading max: every transaction that took an id <= max has an xid below this horizon.
    const [{ xmax }] = rowsOf<{ xmax: string }>(await tx.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`)) as [{ xmax: string }];
    await tx.execute(sql`update analysis_cursors set pending_max = ${Number(max)}, pending_xmax = ${xmax}, updated_at = now() where source = ${source}`);
    return 'seen';
  });
}

/**
 * Counts every committed raw row not yet counted, source by source, until each is caught up (or held
 * back by a transaction still running, or being counted by another instance). Returns the ids counted
 * per source. Safe to call concurrently and after any downtime.
 */
export async function runRollups(database: Database, maxSteps = 1_000): Promise<Record<RollupSource, number>> {
  const counted = { heartbeats: 0, open_records: 0, alerts: 0 };
  for (const source of Object.keys(SOURCES) as RollupSource[]) {
    for (let i = 0; i < maxSteps; i++) {
      const before = await watermarkOf(database, source);
      const result = await step(database, source);
      if (result === 'counted') counted[source] += (await watermarkOf(database, source)) - before;
      else if (result !== 'seen') break;
    }
  }
  return counted;
}

async function watermarkOf(database: Database, source: RollupSource): Promise<number> {
  const [row] = rowsOf<{ watermark: string }>(await database.system.execute(sql`select watermark from analysis_cursors where source = ${source}`));
  return row ? Number(row.watermark) : 0;
}
