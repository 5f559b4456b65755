/**
 * Air switch alarms (table `air_switch_alerts`) with the locks' alert lifecycle (modules/lockAlert):
 * a raise of a (switch, circuit, kind) with no active alert inserts one; a raise while one is active
 * counts an occurrence (partial unique index air_switch_alerts_one_active); a clear closes the active
 * one (state cleared, cleared_at); an operator acknowledges (who, when). Kinds: `trip` (severity by the
 * trip reason, cleared when the circuit is switched on again) and protocol AIR_SWITCH_ALARM_KINDS.
 * Changes are applied in order, in rounds in which each key appears once (ON CONFLICT refuses a row twice).
 */
import type { AirSwitchAlertRecord, Page } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { AlarmChange } from './readings.js';

const param = <V>(rows: readonly AlarmChange[], pick: (row: AlarmChange) => V) => sql.param(rows.map(pick));

/** Applies raises and clears in order (see the module comment). */
export async function applyAlarmChanges(tx: Tx, changes: readonly AlarmChange[]): Promise<void> {
  const rounds: AlarmChange[][] = [];
  const count = new Map<string, number>();
  for (const change of changes) {
    const key = `${change.airSwitchId}:${change.circuit}:${change.kind}`;
    const round = count.get(key) ?? 0;
    count.set(key, round + 1);
    const list = rounds[round] ?? [];
    list.push(change);
    rounds[round] = list;
  }
  for (const round of rounds) {
    const raises = round.filter((c) => !c.cleared);
    const clears = round.filter((c) => c.cleared);
    if (raises.length) {
      await tx.execute(sql`
        insert into air_switch_alerts (tenant_id, air_switch_id, circuit, kind, severity, detail)
        select * from unnest(${param(raises, (c) => c.tenantId)}::int[], ${param(raises, (c) => c.airSwitchId)}::int[], ${param(raises, (c) => c.circuit)}::int[],
          ${param(raises, (c) => c.kind)}::text[], ${param(raises, (c) => c.severity)}::text[], ${param(raises, (c) => c.detail)}::text[])
        on conflict (air_switch_id, circuit, kind) where state = 'active' do update set
          occurrences = air_switch_alerts.occurrences + 1, last_at = now(), detail = coalesce(excluded.detail, air_switch_alerts.detail),
          severity = excluded.severity`);
    }
    if (clears.length) {
      await tx.execute(sql`
        update air_switch_alerts a set state = 'cleared', cleared_at = now(), last_at = now()
        from unnest(${param(clears, (c) => c.airSwitchId)}::int[], ${param(clears, (c) => c.circuit)}::int[], ${param(clears, (c) => c.kind)}::text[]) as v(s, n, k)
        where a.air_switch_id = v.s and a.circuit = v.n and a.kind = v.k and a.state = 'active'`);
    }
  }
}

type AlertRow = {
  id: number; air_switch_id: number; serial: string; name: string; circuit: number; kind: string; severity: string; state: 'active' | 'cleared';
  occurrences: number; detail: string | null; first_at: Date | string; last_at: Date | string; cleared_at: Date | string | null;
  acknowledged_by: string | null; acknowledged_at: Date | string | null; total: number;
};
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A page of the data centre's air switch alerts: active first, most recent first; optionally one switch or one state. */
export async function listAirSwitchAlerts(tx: Executor, q: { airSwitchId?: number; state?: 'active' | 'cleared'; current: number; size: number }): Promise<Page<AirSwitchAlertRecord>> {
  const rows = rowsOf<AlertRow>(await tx.execute(sql`
    select a.id, a.air_switch_id, s.serial, s.name, a.circuit, a.kind, a.severity, a.state, a.occurrences, a.detail, a.first_at, a.last_at,
      a.cleared_at, a.acknowledged_by, a.acknowledged_at, count(*) over () as total
    from air_switch_alerts a join air_switches s on s.id = a.air_switch_id
    where (${q.airSwitchId ?? null}::int is null or a.air_switch_id = ${q.airSwitchId ?? null}::int)
      and (${q.state ?? null}::text is null or a.state = ${q.state ?? null}::text)
    order by (a.state <> 'active'), a.last_at desc, a.id desc limit ${q.size} offset ${(q.current - 1) * q.size}`));
  return {
    records: rows.map((r) => ({
      id: Number(r.id), airSwitchId: r.air_switch_id, serial: r.serial, airSwitchName: r.name, circuit: r.circuit, kind: r.kind, severity: r.severity,
      state: r.state, occurrences: r.occurrences, detail: r.detail, firstAt: iso(r.first_at) as string, lastAt: iso(r.last_at) as string,
      clearedAt: iso(r.cleared_at), acknowledgedBy: r.acknowledged_by, acknowledgedAt: iso(r.acknowledged_at),
    })),
    total: Number(rows[0]?.total ?? 0), current: q.current, size: q.size,
  };
}

/** Acknowledges the data centre's unacknowledged alerts among `ids` as `username`; returns how many changed. */
export async function acknowledgeAirSwitchAlerts(tx: Tx, ids: readonly number[], username: string): Promise<number> {
  const rows = rowsOf(await tx.execute(sql`
    update air_switch_alerts set acknowledged_by = ${username}, acknowledged_at = now()
    where id = any(${sql.param([...ids])}::bigint[]) and acknowledged_at is null returning id`));
  return rows.length;
}
