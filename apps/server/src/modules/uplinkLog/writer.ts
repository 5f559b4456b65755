/**
 * The uplink log's writer (上报日志; table `uplinks`, owned by this module): every event uplink
 * (all but heartbeats) as received. Called by the device gateway inside its batch transaction.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { lockSeqKey, rowsOf } from '../../db/rows.js';
import { LOCK_SEQ_WRITERS, lockSeqWriters } from '../../db/seq-writers.js';
import { emitAll, idListEvents } from '../../events/emit.js';

/** One validated event uplink of an authenticated lock. */
export interface UplinkLogEntry {
  lockId: number;
  tenantId: number;
  message: protocol.UplinkMessage;
}

/**
 * Inserts `entries` with one multi-row statement (owner connection); a redelivered (lock_id, seq) is
 * skipped, and so is a seq the lock already used for a heartbeat (one message per (lock, seq),
 * docs/protocol.md); of duplicates within `entries` the first wins. Emits `lock.uplink` for the locks
 * of new rows (docs/events.md). Returns the new rows' ids keyed by lockSeqKey (absent: a duplicate).
 * The caller moves the locks' last_seq in the same transaction (lockDevice markUplinksSeen).
 *
 * Dedupe without a unique (lock_id, seq) (the log is partitioned by day, docs/partitions.md), as
 * insertHeartbeats does: under the per-lock writer lock, a seq above the lock's last_seq is new
 * without looking (seqs strictly increase per device, and every writer of either log moves last_seq);
 * one at or below it is looked up in both logs' (lock_id, seq) indexes.
 */
export async function insertUplinks(tx: Tx, entries: readonly UplinkLogEntry[]): Promise<Map<string, number>> {
  if (entries.length === 0) return new Map();
  const param = <V>(pick: (entry: UplinkLogEntry) => V) => sql.param(entries.map(pick));
  await lockSeqWriters(tx, LOCK_SEQ_WRITERS, entries.map((r) => r.lockId));
  const result = await tx.execute(sql`
    insert into uplinks (tenant_id, device_kind, lock_id, seq, msg_id, type, data, device_ts)
    select v.tenant_id, 'lock', v.lock_id, v.seq, v.msg_id, v.type, v.data, v.device_ts
    from (
      select distinct on (lock_id, seq) * from unnest(
        ${param((r) => r.tenantId)}::int[], ${param((r) => r.lockId)}::int[], ${param((r) => r.message.seq)}::int[],
        ${param((r) => r.message.msgId)}::text[], ${param((r) => r.message.type)}::text[],
        ${param((r) => JSON.stringify(r.message.data))}::jsonb[],
        ${param((r) => new Date(r.message.ts).toISOString())}::timestamptz[]
      ) with ordinality as u(tenant_id, lock_id, seq, msg_id, type, data, device_ts, ord)
      order by lock_id, seq, ord
    ) v
    left join locks l on l.id = v.lock_id
    where case when v.seq > l.last_seq then true
      else not exists (select 1 from uplinks u where u.device_kind = 'lock' and u.lock_id = v.lock_id and u.seq = v.seq)
        and not exists (select 1 from heartbeats h where h.lock_id = v.lock_id and h.seq = v.seq) end
    order by v.ord
    returning id, lock_id, seq, tenant_id`);
  const rows = rowsOf<{ id: string | number; lock_id: number; seq: number; tenant_id: number }>(result);
  await emitAll(tx, idListEvents('lock.uplink', rows.map((row) => ({ tenantId: row.tenant_id, id: row.lock_id }))));
  return new Map(rows.map((row) => [lockSeqKey(row.lock_id, row.seq), Number(row.id)]));
}

/** One validated uplink of an authenticated air switch, as the log stores it. */
export interface AirSwitchUplinkEntry {
  airSwitchId: number;
  tenantId: number;
  message: protocol.AirSwitchUplinkMessage;
}

/**
 * Inserts air switch uplinks (their raw telemetry log, kept TELEMETRY_RETENTION_DAYS) with one
 * statement, in the caller's transaction, which holds the switches' writer locks (AIR_SWITCH_SEQ_WRITERS)
 * and moves their last_seq after: a seq above the switch's last_seq is new without looking, one at or
 * below it is looked up in air_switch_uplinks_switch_seq. `entries` carry no duplicate (switch, seq).
 * Returns the new rows' (switch, seq, data centre).
 */
export async function insertAirSwitchUplinks(tx: Tx, entries: readonly AirSwitchUplinkEntry[]): Promise<{ air_switch_id: number; seq: number; tenant_id: number }[]> {
  if (entries.length === 0) return [];
  const param = <V>(pick: (entry: AirSwitchUplinkEntry) => V) => sql.param(entries.map(pick));
  return rowsOf<{ air_switch_id: number; seq: number; tenant_id: number }>(await tx.execute(sql`
    insert into uplinks (tenant_id, device_kind, air_switch_id, seq, type, device_ts, data)
    select t, 'airSwitch', a, v.s, ty, to_timestamp(ts / 1000.0), d from unnest(
      ${param((r) => r.tenantId)}::int[], ${param((r) => r.airSwitchId)}::int[], ${param((r) => r.message.seq)}::int[],
      ${param((r) => r.message.type)}::text[], ${param((r) => r.message.ts)}::float8[], ${param((r) => JSON.stringify(r.message.data))}::jsonb[])
      as v(t, a, s, ty, ts, d)
    left join air_switches w on w.id = v.a
    where case when v.s > w.last_seq then true
      else not exists (select 1 from uplinks u where u.device_kind = 'airSwitch' and u.air_switch_id = v.a and u.seq = v.s) end
    returning air_switch_id, seq, tenant_id`));
}
