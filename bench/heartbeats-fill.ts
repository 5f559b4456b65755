/**
 * The data of bench/heartbeats-100m.ts, written in set-based SQL on the owner connection: LOCKS locks
 * over TENANTS data centres and ROWS heartbeats over the DAYS UTC days ending with the anchor day (the
 * day of the first fill, kept in the cluster's folder so a later run reads the same days), R = ROWS / DAYS
 * a day. Heartbeat g (0-based over the whole fill) is lock g mod LOCKS's beat number g / LOCKS + 1 (its
 * seq), id g + 1, received R evenly over its day, so ids and seqs grow with time as the ingest's do.
 * Each day is one transaction: its partition is built apart (rows first, then the indexes the parent's
 * would create, a CHECK of its range so ATTACH does not scan it), attached and given the parent's
 * row-level security, exactly the app's schema afterwards; an interrupted fill redoes only the day it
 * was in. A filled day is marked by a comment on its partition.
 */
import type pg from 'pg';

/** Heartbeats in all (BENCH_HEARTBEAT_ROWS for a smaller development run). */
export const ROWS = Number(process.env.BENCH_HEARTBEAT_ROWS ?? 100_000_000);
export const LOCKS = 100_000;
export const TENANTS = 1_000;
export const DAYS = 90;
/** Heartbeats a day. */
export const PER_DAY = Math.round(ROWS / DAYS);
/** Ids of the bench's locks and data centres start above these (the demo seed's stay below). */
export const LOCK_BASE = 1_000_000;
export const TENANT_BASE = 1_000;
const MARK = 'bench heartbeats fill';

/** The partition name of `day` (YYYY-MM-DD). */
export const partitionOf = (day: string) => `heartbeats_p${day.replaceAll('-', '')}`;
/** The UTC day `k` days before the anchor day (YYYY-MM-DD). */
export const dayBefore = (anchor: string, k: number) => new Date(Date.parse(`${anchor}T00:00:00Z`) - k * 86_400_000).toISOString().slice(0, 10);

/** Creates the bench's data centres and locks once (the demo seed and the migrations come first). */
export async function fillLocks(client: pg.Client): Promise<void> {
  const { rows } = await client.query('select count(*)::int as n from locks where id > $1', [LOCK_BASE]);
  if (rows[0].n === LOCKS) return;
  await client.query(`insert into tenants (id, name, time_zone) select ${TENANT_BASE} + t, 'Bench DC ' || t, 'UTC'
    from generate_series(1, ${TENANTS}) t on conflict do nothing`);
  await client.query(`insert into locks (id, tenant_id, imei, name, building, floor, room, model, firmware_version, battery, rssi, snr,
      heartbeat_interval_s, config)
    select ${LOCK_BASE} + g, ${TENANT_BASE} + 1 + g / ${LOCKS / TENANTS}, (868000000000000 + g)::text, 'Lock ' || g,
      'B' || (g / 20 % 5), 'F' || (g / 5 % 4), 'R' || (g % 100), 'ZG-NB200', 'V1.0.' || (g % 3), 50, -90, 10, 7776,
      '{"volume": 2}'
    from generate_series(0, ${LOCKS - 1}) g on conflict do nothing`);
  await client.query('vacuum analyze tenants, locks');
}

/**
 * One day's rows as a SELECT: day k (0 = the anchor day) of the fill, `day` its YYYY-MM-DD.
 * Battery: a per-lock start (60..100 %) draining 0.2..0.6 % a day, +-1 noise; rssi a per-lock level
 * (-115..-60 dBm) +-4; snr a per-lock level (-5..25 dB) +-2.
 */
function dayRows(k: number, day: string): string {
  const first = (DAYS - 1 - k) * PER_DAY;
  const h = (seed: number, m: number) => `mod(abs(hashint8extended(g, ${seed})), ${m})`;
  const lockHash = (seed: number, m: number) => `mod(abs(hashint8extended(g % ${LOCKS}, ${seed})), ${m})`;
  return `select g + 1, ${TENANT_BASE} + 1 + (g % ${LOCKS}) / ${LOCKS / TENANTS}, ${LOCK_BASE} + g % ${LOCKS}, (g / ${LOCKS} + 1)::int,
      greatest(1, least(100, 60 + ${lockHash(1, 41)} - (g::float8 / ${PER_DAY} * (0.2 + ${lockHash(2, 5)} * 0.1))::int + ${h(3, 3)} - 1))::int,
      (-115 + ${lockHash(4, 56)} + ${h(5, 9)} - 4)::int, (-5 + ${lockHash(6, 31)} + ${h(7, 5)} - 2)::real, 'V1.0.' || (g % ${LOCKS} % 3),
      ts - interval '2 seconds', ts
    from generate_series(${first}::bigint, ${first + PER_DAY - 1}::bigint) g
    cross join lateral (select '${day}T00:00:00Z'::timestamptz + (g - ${first}) * (interval '86400 seconds' / ${PER_DAY}) as ts) t`;
}

/** Builds and attaches day k's partition in one transaction (replacing an empty one the migrations made); rows written. */
export async function fillDay(client: pg.Client, anchor: string, k: number): Promise<number> {
  const day = dayBefore(anchor, k);
  const name = partitionOf(day);
  const next = dayBefore(anchor, k - 1);
  await client.query('begin');
  try {
    const { rows: [old] } = await client.query('select to_regclass($1) is not null as present', [name]);
    if (old?.present) {
      const { rows: [n] } = await client.query(`select count(*)::int as n from (select 1 from ${name} limit 1) x`);
      if (n?.n) throw new Error(`${name} holds rows but is not marked filled: drop it by hand`);
      await client.query(`drop table ${name}`);
    }
    await client.query(`create table ${name} (like heartbeats including defaults)`);
    const result = await client.query(`insert into ${name} (id, tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      ${dayRows(k, day)}`);
    await client.query(`alter table ${name} add constraint ${name}_pkey primary key (id, received_at)`);
    await client.query(`create index ${name}_lock_id_seq_idx on ${name} (lock_id, seq)`);
    // The parent's indexes (migration 0065), so the attach below adopts these instead of building its own
    // beside them (it did, while this built (lock_id, received_at): 3 GB of unused indexes over 90 days).
    await client.query(`create index ${name}_lock_id_received_at_tenant_id_idx on ${name} (lock_id, received_at, tenant_id)`);
    await client.query(`create index ${name}_tenant_id_id_idx on ${name} (tenant_id, id)`);
    await client.query(`create index ${name}_received_at_idx on ${name} using brin (received_at)`);
    await client.query(`alter table ${name} add constraint ${name}_range check (received_at >= '${day}T00:00:00Z' and received_at < '${next}T00:00:00Z')`);
    await client.query(`alter table heartbeats attach partition ${name} for values from ('${day}T00:00:00Z') to ('${next}T00:00:00Z')`);
    await client.query(`alter table ${name} drop constraint ${name}_range`);
    await client.query(`select app_copy_row_security('heartbeats', '${name}'::regclass)`);
    await client.query(`comment on table ${name} is '${MARK}'`);
    await client.query(`select setval('heartbeats_id_seq', greatest((select last_value from heartbeats_id_seq), ${(DAYS - k) * PER_DAY}))`);
    await client.query('commit');
    return result.rowCount ?? 0;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/** Which of the DAYS days (k) are filled. */
export async function filledDays(client: pg.Client, anchor: string): Promise<Set<number>> {
  const { rows } = await client.query(`select c.relname as name from pg_class c join pg_description d on d.objoid = c.oid and d.objsubid = 0
    where c.relname like 'heartbeats_p%' and d.description = $1`, [MARK]);
  const names = new Set(rows.map((r) => r.name as string));
  const done = new Set<number>();
  for (let k = 0; k < DAYS; k++) if (names.has(partitionOf(dayBefore(anchor, k)))) done.add(k);
  return done;
}

/** Fills every missing day, oldest first, printing progress and rows/s; then vacuum analyze of the new days. */
export async function fillHeartbeats(client: pg.Client, anchor: string): Promise<void> {
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query('set synchronous_commit = off');
  const done = await filledDays(client, anchor);
  const started = performance.now();
  let written = 0;
  for (let k = DAYS - 1; k >= 0; k--) {
    if (done.has(k)) continue;
    const t = performance.now();
    const n = await fillDay(client, anchor, k);
    written += n;
    const s = (performance.now() - t) / 1000;
    const all = (performance.now() - started) / 1000;
    console.log(`fill: ${dayBefore(anchor, k)} ${n.toLocaleString('en')} rows in ${s.toFixed(1)} s (${Math.round(n / s).toLocaleString('en')} rows/s); ` +
      `${(done.size + 1).toLocaleString('en')}/${DAYS} days, ${Math.round(written / all).toLocaleString('en')} rows/s this run`);
    done.add(k);
    await client.query(`vacuum analyze ${partitionOf(dayBefore(anchor, k))}`);
  }
  await client.query('analyze heartbeats');
}
