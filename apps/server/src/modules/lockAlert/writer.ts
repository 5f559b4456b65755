/**
 * The alert writer (报警日志 / 门锁警告; table `alerts`, owned by this module), called by the device
 * gateway: alarm uplinks -> the alerts lifecycle, in the caller's transaction:
 * - a raise of a kind with no active alert on the lock inserts one (severity from protocol.ALARM_KINDS);
 * - a raise while one is active updates it (occurrences + 1, last_at, detail) through the partial unique
 *   index alerts_one_active (`on conflict (lock_id, kind) where state = 'active' do update`);
 * - `cleared: true` clears the active alert (state 'cleared', cleared_at); with none active it is a no-op.
 * Uplinks are applied in seq order; a batch is split into rounds so that no statement touches the same
 * (lock, kind) twice (PostgreSQL refuses that for ON CONFLICT DO UPDATE). Usually there is one round.
 */
import { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';

/** The columns every write returns for its `lock.alarm` event (docs/events.md). */
const EVENT_COLUMNS = sql.raw('id, tenant_id, lock_id, kind, state');

/** Emits `lock.alarm` for alert rows returned with EVENT_COLUMNS. */
function alarmsChanged(tx: Tx, result: unknown): Promise<void> {
  return emitAll(tx, rowsOf<{ id: number | string; tenant_id: number; lock_id: number; kind: protocol.AlertKind; state: string }>(result).map((row) => ({
    name: 'lock.alarm', payload: { tenantId: row.tenant_id, lockId: row.lock_id, alertId: Number(row.id), kind: row.kind, cleared: row.state !== 'active' },
  })));
}

/** An alarm uplink of an authenticated lock. */
interface AlarmUplink {
  lockId: number;
  tenantId: number;
  message: Extract<protocol.UplinkMessage, { type: 'alarm' }>;
}

/** Splits `uplinks` into rounds in which each (lock, kind) appears at most once, keeping seq order. */
function alarmRounds(uplinks: readonly AlarmUplink[]): AlarmUplink[][] {
  const sorted = [...uplinks].sort((a, b) => a.lockId - b.lockId || a.message.seq - b.message.seq);
  const seen = new Map<string, number>();
  const rounds: AlarmUplink[][] = [];
  for (const uplink of sorted) {
    const key = `${uplink.lockId}:${uplink.message.data.kind}`;
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    const list = rounds[round] ?? [];
    list.push(uplink);
    rounds[round] = list;
  }
  return rounds;
}

async function raise(tx: Tx, uplinks: readonly AlarmUplink[]): Promise<void> {
  if (uplinks.length === 0) return;
  const param = <V>(pick: (u: AlarmUplink) => V) => sql.param(uplinks.map(pick));
  await alarmsChanged(tx, await tx.execute(sql`
    insert into alerts (tenant_id, lock_id, kind, severity, detail)
    select * from unnest(
      ${param((u) => u.tenantId)}::int[], ${param((u) => u.lockId)}::int[], ${param((u) => u.message.data.kind)}::text[],
      ${param((u) => protocol.ALARM_KINDS[u.message.data.kind])}::text[], ${param((u) => u.message.data.detail ?? null)}::text[])
    on conflict (lock_id, kind) where state = 'active' do update set
      occurrences = alerts.occurrences + 1, last_at = now(), detail = coalesce(excluded.detail, alerts.detail)
    returning ${EVENT_COLUMNS}`));
}

async function clear(tx: Tx, uplinks: readonly AlarmUplink[]): Promise<void> {
  if (uplinks.length === 0) return;
  const param = <V>(pick: (u: AlarmUplink) => V) => sql.param(uplinks.map(pick));
  await alarmsChanged(tx, await tx.execute(sql`
    update alerts a set state = 'cleared', cleared_at = now(), detail = coalesce(v.detail, a.detail)
    from unnest(${param((u) => u.lockId)}::int[], ${param((u) => u.message.data.kind)}::text[], ${param((u) => u.message.data.detail ?? null)}::text[])
      as v(lock_id, kind, detail)
    where a.lock_id = v.lock_id and a.kind = v.kind and a.state = 'active'
    returning a.id, a.tenant_id, a.lock_id, a.kind, a.state`));
}

/** Applies alarm uplinks to the alerts table (see the module comment). */
export async function applyAlarms(tx: Tx, uplinks: readonly AlarmUplink[]): Promise<void> {
  for (const round of alarmRounds(uplinks)) {
    await raise(tx, round.filter((u) => !u.message.data.cleared));
    await clear(tx, round.filter((u) => u.message.data.cleared));
  }
}

/** A derived alarm (modules/analysis/derived.ts) to raise or clear on a lock. */
export interface DerivedAlarm {
  tenantId: number;
  lockId: number;
  kind: protocol.DerivedAlarmKind;
  detail?: string | null;
}

/**
 * Raises derived alarms into the same lifecycle as lock alarms (severity from protocol.DERIVED_ALARM_KINDS;
 * a repeat while active adds an occurrence). Returns the ids of alerts that were newly raised.
 */
export async function raiseDerivedAlarms(tx: Tx, alarms: readonly DerivedAlarm[]): Promise<number[]> {
  const unique = [...new Map(alarms.map((a) => [`${a.lockId}:${a.kind}`, a])).values()];
  if (unique.length === 0) return [];
  const param = <V>(pick: (a: DerivedAlarm) => V) => sql.param(unique.map(pick));
  const result = await tx.execute(sql`
    insert into alerts (tenant_id, lock_id, kind, severity, detail)
    select * from unnest(${param((a) => a.tenantId)}::int[], ${param((a) => a.lockId)}::int[], ${param((a) => a.kind)}::text[],
      ${param((a) => protocol.DERIVED_ALARM_KINDS[a.kind])}::text[], ${param((a) => a.detail ?? null)}::text[])
    on conflict (lock_id, kind) where state = 'active' do update set
      occurrences = alerts.occurrences + 1, last_at = now(), detail = coalesce(excluded.detail, alerts.detail)
    returning ${EVENT_COLUMNS}, (xmax::text = '0') as raised`);
  await alarmsChanged(tx, result);
  return rowsOf<{ id: number; raised: boolean }>(result).filter((r) => r.raised).map((r) => Number(r.id));
}

/** Clears the active derived alarms of `kind` on `lockIds` (no-op where none is active); returns how many. */
export async function clearDerivedAlarms(tx: Tx, kind: protocol.DerivedAlarmKind, lockIds: readonly number[], detail?: string): Promise<number> {
  if (lockIds.length === 0) return 0;
  const result = await tx.execute(sql`
    update alerts set state = 'cleared', cleared_at = now(), detail = coalesce(${detail ?? null}, detail)
    where lock_id = any(${sql.param([...lockIds])}::int[]) and kind = ${kind} and state = 'active' returning ${EVENT_COLUMNS}`);
  await alarmsChanged(tx, result);
  return rowsOf(result).length;
}
