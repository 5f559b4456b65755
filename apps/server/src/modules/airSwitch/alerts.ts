/**
 * Air switch alarms (table `air_switch_alerts`) with the locks' alert lifecycle (modules/lockAlert):
 * a raise of a (switch, circuit, kind) with no active alert inserts one; a raise while one is active
 * counts an occurrence (partial unique index air_switch_alerts_one_active); a clear closes the active
 * one (state cleared, cleared_at); an operator acknowledges (who, when). Kinds: `trip` (severity by the
 * trip reason, cleared when the circuit is switched on again) and protocol AIR_SWITCH_ALARM_KINDS.
 * Changes are applied in order, in rounds in which each key appears once (ON CONFLICT refuses a row twice);
 * each emits `airSwitch.alarm` with the transaction.
 */
import type { EventMap } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';
import type { AlarmChange } from './readings.js';

/** Emits `airSwitch.alarm` (docs/events.md) for rows returned as `tenant_id, air_switch_id, kind, state`. */
function alarmsChanged(tx: Tx, result: unknown): Promise<void> {
  return emitAll(tx, rowsOf<{ tenant_id: number; air_switch_id: number; kind: EventMap['airSwitch.alarm']['kind']; state: string }>(result).map((row) => ({
    name: 'airSwitch.alarm', payload: { tenantId: row.tenant_id, airSwitchId: row.air_switch_id, kind: row.kind, cleared: row.state !== 'active' },
  })));
}

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
      await alarmsChanged(tx, await tx.execute(sql`
        insert into air_switch_alerts (tenant_id, air_switch_id, circuit, kind, severity, detail)
        select * from unnest(${param(raises, (c) => c.tenantId)}::int[], ${param(raises, (c) => c.airSwitchId)}::int[], ${param(raises, (c) => c.circuit)}::int[],
          ${param(raises, (c) => c.kind)}::text[], ${param(raises, (c) => c.severity)}::text[], ${param(raises, (c) => c.detail)}::text[])
        on conflict (air_switch_id, circuit, kind) where state = 'active' do update set
          occurrences = air_switch_alerts.occurrences + 1, last_at = now(), detail = coalesce(excluded.detail, air_switch_alerts.detail),
          severity = excluded.severity
        returning tenant_id, air_switch_id, kind, state`));
    }
    if (clears.length) {
      await alarmsChanged(tx, await tx.execute(sql`
        update air_switch_alerts a set state = 'cleared', cleared_at = now(), last_at = now()
        from unnest(${param(clears, (c) => c.airSwitchId)}::int[], ${param(clears, (c) => c.circuit)}::int[], ${param(clears, (c) => c.kind)}::text[]) as v(s, n, k)
        where a.air_switch_id = v.s and a.circuit = v.n and a.kind = v.k and a.state = 'active'
        returning a.tenant_id, a.air_switch_id, a.kind, a.state`));
    }
  }
}

/** Acknowledges the data centre's unacknowledged alerts among `ids` as `username` with `note` (empty: none); returns how many changed. */
export async function acknowledgeAirSwitchAlerts(tx: Tx, ids: readonly number[], username: string, note?: string): Promise<number> {
  const rows = rowsOf(await tx.execute(sql`
    update air_switch_alerts set acknowledged_by = ${username}, acknowledged_at = now(), acknowledge_note = ${note || null}
    where id = any(${sql.param([...ids])}::bigint[]) and acknowledged_at is null returning id`));
  return rows.length;
}
