/**
 * The data of bench/analysis.ts, written in set-based SQL on the owner connection: LOCKS locks of data
 * centre 100 (50 buildings, registered over the last 400 days), DAYS days of analysis rollups as the
 * rollup job would have left them after LOCKS x 24 heartbeats a day (~100,000,000 heartbeats), unlocks
 * (~2.5 a lock a day over six methods), failed attempts (5 % of lock-days) and alarms (1 % of
 * lock-days), the alerts behind those alarms (those of the last two days active), some commands,
 * unsynced lock users and credentials, battery forecasts from the real job. The raw tables stay empty:
 * the rollup cursors are set past the generated alerts, as if the job had counted them.
 * Pseudo-random choices are hashes of (lock, day), so every fill is the same.
 */
import pg from 'pg';
import { provisionLocks } from '../apps/server/integration/devices.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { runForecasts } from '../apps/server/src/modules/analysis/forecast.js';
import { runRollups } from '../apps/server/src/modules/analysis/rollup.js';

/** Locks of data centre 100 (BENCH_ANALYSIS_LOCKS for a smaller smoke run). */
export const LOCKS = Number(process.env.BENCH_ANALYSIS_LOCKS ?? 100_000);
/** Days of rollups, today included: 45 x 24 = 1,080 heartbeats a lock (~100,000,000 with the silent lock-days and later registrations). */
export const DAYS = 45;

const ZONE = "'Asia/Shanghai'";
// Today in the analysis zone, and the hours of today so far (the current one included).
const T = `(select (now() at time zone ${ZONE})::date as today, extract(hour from now() at time zone ${ZONE})::int + 1 as hours) t`;
/** A pseudo-random integer in [0, m) per lock `l`, day `k` and `seed`. */
const rnd = (seed: number | string, m: number | string) => `mod(abs(hashint8extended(l.id::bigint * 64 + k, ${seed})), ${m})`;
// A lock-day with heartbeats: the lock was registered by the end of the day; 2 % of lock-days silent.
const lockDays = (joins: string) => `from locks l cross join ${T} cross join generate_series(0, ${DAYS - 1}) k ${joins}
  where l.tenant_id = 100 and l.created_at < ((t.today - k + 1)::timestamp at time zone ${ZONE}) and ${rnd(1, 100)} >= 2`;
const DAY = 't.today - k';

const STEPS: [string, string][] = [
  ['locks', `insert into locks (tenant_id, imei, name, building, floor, room, model, firmware_version, battery, rssi, snr,
      heartbeat_interval_s, last_heartbeat_at, last_uplink_at, config, service_end_at, created_at)
    select 100, (869000000000000 + g)::text, 'Lock ' || g, 'B' || lpad(((g - 1) / 2000 % 50)::text, 2, '0'),
      'F' || lpad(((g - 1) / 100 % 20)::text, 2, '0'), 'R' || lpad(((g - 1) % 100)::text, 3, '0'), 'ZG-NB200', 'V1.0.' || (g % 3),
      20 + g % 80, -115 + g % 50, (g % 30) - 5, 3600, now() - (g % 3600) * interval '1 second', now() - (g % 3600) * interval '1 second',
      '{"volume": 2}', now() + (g % 730) * interval '1 day', now() - (${LOCKS} - g) * interval '345 seconds'
    from generate_series(1, ${LOCKS}) g`],
  ['rollups per lock and day: heartbeats', `insert into analysis_lock_day (tenant_id, lock_id, day, metric, n, sum, min, max)
    select 100, l.id, ${DAY}, m.metric, m.n, m.sum, m.min, m.max ${lockDays(`cross join lateral (select case when k = 0 then t.hours else 24 end as beats,
        least(100, l.battery + k * case when l.id % 100 = 0 then 2.0 else 0.05 + (l.id % 7) * 0.01 end)::int as b) v
      cross join lateral (values ('heartbeat', v.beats, 0, null::int, null::int), ('battery', v.beats, v.beats * v.b, v.b, v.b),
        ('rssi', v.beats, v.beats * l.rssi, l.rssi - 3, l.rssi + 3)) m(metric, n, sum, min, max)`)}`],
  ['rollups per lock and day: unlocks', `insert into analysis_lock_day (tenant_id, lock_id, day, metric, n)
    select 100, l.id, ${DAY}, 'unlock.' || m.method, 1 + ${rnd('m.seed', 'm.most')} ${lockDays(`cross join
      (values ('fingerprint', 2, 700, 6), ('card', 3, 400, 4), ('password', 4, 150, 3), ('app', 5, 50, 2), ('remote', 6, 20, 1), ('mechanicalKey', 7, 5, 1))
      m(method, seed, permille, most)`)} and ${rnd('m.seed + 100', 1000)} < m.permille * case when k = 0 then t.hours else 24 end / 24`],
  ['rollups per lock and day: failed attempts and alarms', `insert into analysis_lock_day (tenant_id, lock_id, day, metric, n)
    select 100, l.id, ${DAY}, m.metric, m.n ${lockDays(`cross join lateral (values
      ('unlock_failed', 1 + ${rnd(8, 5)}, ${rnd(9, 100)} < 5),
      ('alarm', 1, ${rnd(10, 100)} = 0),
      ('alarm.' || (array['doorLeftOpen', 'doorLeftOpen', 'doorLeftOpen', 'doorLeftOpen', 'lowBattery', 'lowBattery', 'wrongPasswordLockout',
        'wrongPasswordLockout', 'tamper', 'forcedOpen', 'silentLock', 'duress'])[1 + ${rnd(11, 12)}], 1, ${rnd(10, 100)} = 0)) m(metric, n, present)`)} and m.present`],
  ['indexes of the rollups per lock and day', `alter table analysis_lock_day add constraint analysis_lock_day_lock_id_day_metric_pk primary key (lock_id, day, metric);
    create index analysis_lock_day_tenant_metric on analysis_lock_day using btree (tenant_id, metric, day)`],
  ['rollups per tenant and day', `insert into analysis_tenant_day (tenant_id, day, metric, n, sum, min, max)
    select tenant_id, day, metric, sum(n), sum(sum), min(min), max(max) from analysis_lock_day group by 1, 2, 3
    union all select tenant_id, day, 'reporting', count(*), 0, null, null from analysis_lock_day where metric = 'heartbeat' group by 1, 2`],
  ['rollups per tenant and hour', `insert into analysis_tenant_hour (tenant_id, hour, metric, n, sum, min, max)
    select * from (select d.tenant_id, (d.day + make_interval(hours => h))::timestamp at time zone ${ZONE} as hour, d.metric,
        d.n / x.hs + (h < d.n % x.hs)::int as n, d.sum / x.hs + (h < d.sum % x.hs)::int as sum, d.min, d.max
      from analysis_tenant_day d cross join ${T}
      cross join lateral (select case when d.day = t.today then t.hours else 24 end as hs) x cross join generate_series(0, x.hs - 1) h
      where d.metric <> 'reporting') r where r.n > 0`],
  ['alerts behind the alarms', `insert into alerts (tenant_id, device_kind, lock_id, kind, severity, state, first_at, last_at, cleared_at)
    select 100, 'lock', a.lock_id, a.kind, s.severity, case when a.active then 'active' else 'cleared' end, a.at, a.at, case when not a.active then a.at + interval '1 hour' end
    from (select d.lock_id, substr(d.metric, 7) as kind, least(now(), (d.day + interval '10 hours')::timestamp at time zone ${ZONE}) as at,
        d.day >= t.today - 1 and row_number() over (partition by d.lock_id, d.metric order by d.day desc) = 1 as active
      from analysis_lock_day d cross join ${T} where d.metric like 'alarm.%') a
    join (values ('doorLeftOpen', 'minor'), ('lowBattery', 'warning'), ('wrongPasswordLockout', 'major'), ('tamper', 'critical'),
      ('forcedOpen', 'critical'), ('silentLock', 'major'), ('duress', 'critical')) s(kind, severity) on s.kind = a.kind
    order by a.at`],
  ['rollup cursors past those alerts', `insert into analysis_cursors (source, watermark, pending_max)
    select 'alerts', max(id), max(id) from alerts union all values ('heartbeats', 0, 0), ('open_records', 0, 0)
    on conflict (source) do update set watermark = excluded.watermark, pending_max = excluded.pending_max`],
  ['commands (one a lock: 10 % configuration pushes; 1 % failed, 0.5 % queued)', `insert into commands (msg_id, tenant_id, device_kind, lock_id, type, data, state, attempts,
      created_by, created_at, expires_at, completed_at)
    select 'bench-' || l.id, 100, 'lock', l.id, case when ${rnd(20, 10)} = 0 then 'configPush' else 'clockSync' end,
      case when ${rnd(20, 10)} = 0 then jsonb_build_object('config', jsonb_build_object('volume', 2 + ${rnd(21, 5)} / 4)) else '{"time": 0}' end,
      s.state, 1, 'admin', s.at, s.at + interval '1 day', case when s.state <> 'QUEUED' then s.at + interval '1 minute' end
    from locks l cross join (select 0 as k) k0 cross join lateral (select case when ${rnd(22, 1000)} < 10 then 'FAILED' when ${rnd(22, 1000)} < 15 then 'QUEUED'
      else 'SUCCESSFUL' end as state, now() - ${rnd(23, 30 * 24)} * interval '1 hour' as at) s where l.tenant_id = 100 order by s.at`],
  ['unsynced lock users and credentials (1 % of locks)', `insert into lock_users (tenant_id, lock_id, user_slot, name, sync_state, pending_action, created_by)
    select 100, l.id, 1, 'User ' || l.id, 'add_failed', 'add', 'admin' from locks l cross join (select 0 as k) k0 where l.tenant_id = 100 and ${rnd(30, 100)} = 0;
    insert into credentials (tenant_id, lock_id, kind, slot, slot_table, card_number, sync_state, pending_action, created_by)
    select 100, l.id, 'card', 1, 'cards', 'A1B2C3D4', 'adding', 'add', 'admin' from locks l cross join (select 0 as k) k0 where l.tenant_id = 100 and ${rnd(31, 100)} = 0`],
];

/** Migrates, seeds the demo accounts and writes the data described above into `databaseUrl`; logs each step's time, s. */
export async function fillAnalysis(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await provisionLocks(database, 0);
    await client.connect();
    // Bulk-load settings of this throw-away cluster: fewer checkpoints while ~2 GB are written.
    for (const statement of [`alter system set max_wal_size = '8GB'`, `alter system set checkpoint_timeout = '30min'`, 'select pg_reload_conf()']) await client.query(statement);
    await client.query(`set maintenance_work_mem = '1GB'; set synchronous_commit = off;
      alter table analysis_lock_day drop constraint analysis_lock_day_lock_id_day_metric_pk; drop index analysis_lock_day_tenant_metric`);
    for (const [what, statement] of STEPS) {
      const started = performance.now();
      const result = await client.query(statement);
      const rows = (Array.isArray(result) ? result : [result]).reduce((n, r) => n + (r.rowCount ?? 0), 0);
      console.log(`fill: ${what}: ${rows.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await client.query('vacuum analyze'); // as autovacuum would leave past days' rows: visibility map set, statistics fresh
    let started = performance.now();
    await runForecasts(database); // the real job: forecasts per lock, batteryCliff alarms
    await runRollups(database); // counts those alarms, as the job would
    console.log(`fill: battery forecasts and their alarms in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    await client.query('vacuum analyze');
    console.log(`fill: vacuum analyze in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const { rows: [worth] } = await client.query(`select to_char(sum(n), 'FM999,999,999,999') as n from analysis_tenant_day where metric = 'heartbeat'`);
    console.log(`fill: rollups worth ${worth?.n} heartbeats`);
  } finally {
    await client.end().catch(() => undefined);
    await database.close();
  }
}

/** Moves the locks' last heartbeat and uplink to the last hour (a reused fill's locks would all be offline). */
export async function refreshLiveState(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`update locks set last_heartbeat_at = now() - (id % 3600) * interval '1 second', last_uplink_at = now() - (id % 3600) * interval '1 second'
      where tenant_id = 100 and imei like '869%'`);
    await client.query('vacuum analyze locks');
  } finally {
    await client.end();
  }
}
