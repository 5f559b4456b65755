/**
 * Energy analysis read from the rollups (never the raw uplinks), in the caller's tenant transaction.
 * Days are calendar days in the operator's `timeZone` (exact for zones on whole hours):
 * - the whole data centre's kWh, trips and peak demand per period: its hourly rows
 *   (air_switch_load_hourly, a few hundred rows for a month, in any zone);
 * - one switch's kWh per circuit and period: its circuits' daily rows when `timeZone` is the rollup
 *   zone (TELEMETRY_TIME_ZONE), else their hourly rows summed into that zone's days; its peak demand:
 *   the highest hourly sum of its circuits' average power;
 * - top consumers: per circuit, the difference of its cumulative kWh at the range's ends (hourly
 *   rollup `kwh_total`, topConsumers), about two rows per circuit in any zone and for any length;
 * - today's load curve of the data centre: its hourly rows (average and maximum load).
 */
import type { EnergyAnalysis } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

export interface EnergyQuery {
  from: string;
  to: string;
  granularity: 'day' | 'month';
  timeZone: string;
  airSwitchId?: number;
}

/** Start of day `date` (YYYY-MM-DD) in `timeZone`, as SQL timestamptz. */
const dayStart = (date: string | SQL, timeZone: string) => sql`(${date}::date::timestamp at time zone ${timeZone})`;

/**
 * The ten circuits with the most kWh over [start, end), of those with an hourly row in it: each
 * circuit's total through `end` less its total before `start`, from the cumulative `kwh_total` of
 * air_switch_energy_hourly. Through `end`: the circuit's own running total when its latest hour is
 * before `end` (a range up to now), else its row of the hour before `end`; before `start`: its row of
 * the hour before `start`. Those rows come in one index range for all circuits (hourly_tenant); a
 * circuit without one (no reading in that hour, or a zone off whole hours) costs one index probe.
 * About two rows per circuit whatever the range's length or zone.
 */
function topConsumers(start: SQL, end: SQL, circuitFilter: SQL): SQL {
  const s = sql`(select ${start})`;
  const e = sql`(select ${end})`;
  const hourBefore = (t: SQL) => sql`(select ${t} - interval '1 hour')`;
  const probe = (t: SQL, when: SQL) => sql`(select p.hour, p.kwh_total from air_switch_energy_hourly p where ${when} and p.circuit_id = c.id and p.hour < ${t}
    order by p.hour desc limit 1)`;
  const later = sql`c.energy_hour >= ${e}`;
  return sql`select c.id as circuit_id,
      (case when ${later} then coalesce(eh.kwh_total, pe.kwh_total) else c.energy_total_kwh end - coalesce(sh.kwh_total, ps.kwh_total, 0))::float8 as kwh
    from air_switch_circuits c
    left join air_switch_energy_hourly eh on eh.circuit_id = c.id and eh.hour = ${hourBefore(end)} and ${later}
    left join lateral ${probe(e, sql`${later} and eh.circuit_id is null`)} pe on true
    left join air_switch_energy_hourly sh on sh.circuit_id = c.id and sh.hour = ${hourBefore(start)}
    left join lateral ${probe(s, sql`sh.circuit_id is null`)} ps on true
    where case when ${later} then coalesce(eh.hour, pe.hour) else c.energy_hour end >= ${s} ${circuitFilter}
    order by 2 desc limit 10`;
}

/** The energy analysis of a range (see the module comment; shapes: contract energyAnalysis). */
export async function energyAnalysis(tx: Executor, q: EnergyQuery, rollupTimeZone: string): Promise<EnergyAnalysis> {
  const fmt = q.granularity === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  const start = dayStart(q.from, q.timeZone);
  const end = sql`${dayStart(q.to, q.timeZone)} + interval '1 day'`;
  const period = (hour: string) => sql`to_char((${sql.raw(hour)} at time zone ${q.timeZone})::date, ${fmt})`;
  const circuits = q.airSwitchId === undefined ? sql`` : sql`and circuit_id = any(array(select id from air_switch_circuits where air_switch_id = ${q.airSwitchId}))`;
  // One switch: rows per circuit and day in the operator's zone, from the daily or the hourly rollup.
  const perCircuitDay: SQL = q.timeZone === rollupTimeZone
    ? sql`select circuit_id, day, kwh, trips from air_switch_energy_daily where day between ${q.from}::date and ${q.to}::date ${circuits}`
    : sql`select circuit_id, (hour at time zone ${q.timeZone})::date as day, sum(kwh) as kwh, sum(trips) as trips
        from air_switch_energy_hourly where hour >= ${start} and hour < ${end} ${circuits} group by 1, 2`;
  const periods = rowsOf<{ period: string; kwh: number; trips: number; peak: number | null }>(await tx.execute(q.airSwitchId === undefined
    ? sql`select ${period('hour')} as period, sum(kwh)::float8 as kwh, sum(trips)::int as trips, max(load_w)::float8 as peak
        from air_switch_load_hourly where hour >= ${start} and hour < ${end} group by 1 order by 1`
    : sql`select e.period, e.kwh, e.trips, p.peak from (
          select to_char(day, ${fmt}) as period, sum(kwh)::float8 as kwh, sum(trips)::int as trips from (${perCircuitDay}) r group by 1) e
        left join (select period, max(w)::float8 as peak from (
          select ${period('hour')} as period, hour, sum(power_sum / nullif(samples, 0)) as w from air_switch_energy_hourly
          where hour >= ${start} and hour < ${end} ${circuits} group by 1, 2) x group by 1) p on p.period = e.period order by 1`));
  const named = sql`join air_switch_circuits c on c.id = r.circuit_id join air_switches s on s.id = c.air_switch_id`;
  const top = rowsOf<{ circuit_id: number; name: string; circuit: number; circuit_name: string; kwh: number }>(await tx.execute(sql`
    select r.circuit_id, s.name, c.circuit, c.name as circuit_name, r.kwh from (
      ${topConsumers(start, end, q.airSwitchId === undefined ? sql`` : sql`and c.air_switch_id = ${q.airSwitchId}`)}) r
    ${named} order by r.kwh desc`));
  // Per circuit and period only for one switch: for a whole data centre the top consumers stand for it.
  const byCircuit = q.airSwitchId === undefined ? [] : rowsOf<{ period: string; circuit_id: number; name: string; circuit: number; circuit_name: string; kwh: number }>(await tx.execute(sql`
    select r.period, r.circuit_id, s.name, c.circuit, c.name as circuit_name, r.kwh from (
      select to_char(day, ${fmt}) as period, circuit_id, sum(kwh)::float8 as kwh from (${perCircuitDay}) x group by 1, 2) r ${named} order by r.period, c.circuit`));
  return {
    byPeriod: periods.map((p) => ({ period: p.period, kwh: round(p.kwh), peakW: round(p.peak ?? 0), trips: Number(p.trips) })),
    top: top.map((t) => ({ circuitId: t.circuit_id, airSwitchName: t.name, circuit: t.circuit, circuitName: t.circuit_name, kwh: round(t.kwh) })),
    byCircuit: byCircuit.map((b) => ({ period: b.period, circuitId: b.circuit_id, airSwitchName: b.name, circuit: b.circuit, circuitName: b.circuit_name, kwh: round(b.kwh) })),
    loadCurve: await loadCurve(tx, q.timeZone, q.airSwitchId),
  };
}

const round = (value: number) => Math.round(Number(value) * 1000) / 1000;

/** Today's (in `timeZone`) load per hour: average and highest W, of the data centre or of one switch (also the big screen's curve). */
export async function loadCurve(tx: Executor, timeZone: string, airSwitchId?: number) {
  const today = sql`date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone}`;
  const rows = rowsOf<{ hour: Date | string; avg_w: number; max_w: number }>(await tx.execute(airSwitchId === undefined
    ? sql`select hour, load_w::float8 as avg_w, power_max_w::float8 as max_w from air_switch_load_hourly where hour >= ${today} order by 1`
    : sql`select h.hour, sum(h.power_sum / nullif(h.samples, 0))::float8 as avg_w, sum(h.power_max)::float8 as max_w
        from air_switch_energy_hourly h join air_switch_circuits c on c.id = h.circuit_id
        where h.hour >= ${today} and c.air_switch_id = ${airSwitchId} group by 1 order by 1`));
  return rows.map((r) => ({ hour: new Date(r.hour).toISOString(), avgW: round(Math.max(0, r.avg_w ?? 0)), maxW: round(r.max_w ?? 0) }));
}

/**
 * Today's load and energy of the data centre (for the big screen): `loadW` the summed power
 * of its circuits now (W, latest readings of switched-on circuits), `energyKwh` since midnight in
 * `timeZone`, `switches` / `circuits` counted, `trippedCircuits` now.
 */
export async function todayLoadAndEnergy(tx: Executor, timeZone: string): Promise<{ loadW: number; energyKwh: number; switches: number; circuits: number; trippedCircuits: number }> {
  const [now] = rowsOf<{ load_w: number; circuits: number; switches: number; tripped: number }>(await tx.execute(sql`
    select coalesce(sum(power) filter (where state = 'on'), 0)::float8 as load_w, count(*)::int as circuits,
      count(distinct air_switch_id)::int as switches, count(*) filter (where state = 'tripped')::int as tripped from air_switch_circuits`));
  const [energy] = rowsOf<{ kwh: number }>(await tx.execute(sql`
    select coalesce(sum(kwh), 0)::float8 as kwh from air_switch_energy_hourly
    where hour >= date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone}`));
  return { loadW: round(now?.load_w ?? 0), energyKwh: round(energy?.kwh ?? 0), switches: now?.switches ?? 0, circuits: now?.circuits ?? 0, trippedCircuits: now?.tripped ?? 0 };
}
