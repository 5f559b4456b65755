/**
 * Writes to the lock rows (table `locks`, owned by this module) driven by device uplinks. Called by the
 * device gateway inside its batch transaction (owner connection, all tenants); each function is one
 * multi-row statement, so a batch of any size costs one round trip per kind of change.
 */
import { normaliseVersion, type protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { numberArray, textArray } from '../../db/array-literal.js';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { markCameOnline } from './presence.js';

/** A lock's newest heartbeat of a batch (seq: its sequence number). */
export interface HeartbeatReading {
  lockId: number;
  seq: number;
  data: protocol.HeartbeatData;
}

/** An uplink of a lock, as far as the lock row cares: its sequence number and message. */
interface LockUplink<T extends protocol.UplinkMessage = protocol.UplinkMessage> {
  lockId: number;
  message: T;
}

/**
 * The latest readings of heartbeats, one entry per lock (UPDATE ... FROM must match each row once):
 * last_heartbeat_at = last_uplink_at = now(), last_seq = greatest(last_seq, seq), and battery, rssi,
 * snr, firmware_version (canonical when it is a semantic version: `V1.2.3` -> `1.2.3`, contract
 * version.ts), heartbeat_interval_s from the reading unless the lock already holds a newer
 * seq (a late redelivery does not roll readings back). Only a stored heartbeat counts: one refused
 * because its seq belongs to an event uplink (one message per (lock, seq), docs/protocol.md) changes
 * nothing. Call it after insertHeartbeats in the same transaction (the check looks only at heartbeats
 * received in it). Returns the ids of the locks that
 * came online by it (presence was not `online`), for the open platform's presence events.
 */
export async function applyHeartbeatReadings(tx: Tx, latest: readonly HeartbeatReading[]): Promise<number[]> {
  if (latest.length === 0) return [];
  const column = (pick: (reading: HeartbeatReading) => number) => numberArray(latest.map(pick));
  const updated = await tx.execute(sql`
    update locks l set
      battery = case when v.seq >= coalesce(l.last_seq, -1) then v.battery else l.battery end,
      rssi = case when v.seq >= coalesce(l.last_seq, -1) then v.rssi else l.rssi end,
      snr = case when v.seq >= coalesce(l.last_seq, -1) then v.snr else l.snr end,
      firmware_version = case when v.seq >= coalesce(l.last_seq, -1) then v.firmware_version else l.firmware_version end,
      heartbeat_interval_s = case when v.seq >= coalesce(l.last_seq, -1) then v.interval_s else l.heartbeat_interval_s end,
      last_heartbeat_at = now(),
      last_uplink_at = now(),
      last_seq = greatest(l.last_seq, v.seq)
    from unnest(
      ${column((r) => r.lockId)}::int[],
      ${column((r) => r.seq)}::int[],
      ${column((r) => r.data.battery)}::int[],
      ${column((r) => r.data.rssi)}::int[],
      ${column((r) => r.data.snr)}::real[],
      ${textArray(latest.map((r) => normaliseVersion(r.data.firmwareVersion) ?? r.data.firmwareVersion))}::text[],
      ${column((r) => r.data.intervalS)}::int[]
    ) as v(lock_id, seq, battery, rssi, snr, firmware_version, interval_s)
    where l.id = v.lock_id
      -- Stored by this transaction, so received now(): that prunes the check to today's partition.
      and exists (select 1 from heartbeats h where h.lock_id = v.lock_id and h.seq = v.seq and h.received_at >= now())
    returning l.id`);
  const ids = rowsOf<{ id: number }>(updated).map((row) => row.id);
  if (ids.length === 0) return [];
  return markCameOnline(tx, ids); // presence.ts: the online transition and its event
}

/**
 * Locks that sent event uplinks: last_uplink_at = now() (an NB-IoT lock is reachable for
 * protocol.WAKE_WINDOW_MS after any uplink) and last_seq = greatest(last_seq, seq), so a restarted
 * device (simulator: lastSeq + 1) never reuses a seq. `maxSeq`: lock id -> its highest seq.
 */
export async function markUplinksSeen(tx: Tx, maxSeq: ReadonlyMap<number, number>): Promise<void> {
  if (maxSeq.size === 0) return;
  await tx.execute(sql`
    update locks l set last_uplink_at = now(), last_seq = greatest(l.last_seq, v.seq)
    from unnest(${sql.param([...maxSeq.keys()])}::int[], ${sql.param([...maxSeq.values()])}::int[]) as v(id, seq)
    where l.id = v.id`);
}

/** The uplink with the highest seq per lock. */
function newestPerLock<T extends LockUplink>(uplinks: readonly T[]): T[] {
  const newest = new Map<number, T>();
  for (const uplink of uplinks) {
    const seen = newest.get(uplink.lockId);
    if (!seen || uplink.message.seq > seen.message.seq) newest.set(uplink.lockId, uplink);
  }
  return [...newest.values()];
}

/** doorState uplinks -> locks.door_state ('open' | 'closed') and locks.locked (bolt thrown); each lock's newest applies. */
export async function applyDoorStates(tx: Tx, uplinks: readonly LockUplink<Extract<protocol.UplinkMessage, { type: 'doorState' }>>[]): Promise<void> {
  const latest = newestPerLock(uplinks);
  if (latest.length === 0) return;
  await tx.execute(sql`
    update locks l set door_state = v.door, locked = v.locked
    from unnest(${sql.param(latest.map((u) => u.lockId))}::int[], ${sql.param(latest.map((u) => u.message.data.door))}::text[],
      ${sql.param(latest.map((u) => u.message.data.locked))}::bool[]) as v(lock_id, door, locked)
    where l.id = v.lock_id`);
}

/**
 * configReport uplinks -> locks.config: the reported fields are merged over what was stored (a partial
 * report keeps the rest); heartbeat_interval_s (s) follows config.heartbeatIntervalS when present.
 * Each lock's newest report applies.
 */
export async function applyConfigReports(tx: Tx, uplinks: readonly LockUplink<Extract<protocol.UplinkMessage, { type: 'configReport' }>>[]): Promise<void> {
  const latest = newestPerLock(uplinks);
  if (latest.length === 0) return;
  const configs = latest.map((u) => u.message.data.config as protocol.LockConfig);
  await tx.execute(sql`
    update locks l set config = coalesce(l.config, '{}'::jsonb) || v.config,
      heartbeat_interval_s = coalesce(v.interval_s, l.heartbeat_interval_s)
    from unnest(${sql.param(latest.map((u) => u.lockId))}::int[], ${sql.param(configs.map((c) => JSON.stringify(c)))}::jsonb[],
      ${sql.param(configs.map((c) => c.heartbeatIntervalS ?? null))}::int[]) as v(lock_id, config, interval_s)
    where l.id = v.lock_id`);
}
