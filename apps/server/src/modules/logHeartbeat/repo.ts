/**
 * 心跳日志 queries on `heartbeats` (tenant transaction). With a lock: newest first through
 * heartbeats_lock_time; tenant-wide: by id descending (insert order) through the primary key, with
 * the time range narrowed by the BRIN index on received_at.
 */
import type { HeartbeatLogRecord, LogFilter, Page } from '@iot/contract';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { heartbeats, locks } from '../../db/schema.js';
import { cappedCount, one } from '../deviceLog/count.js';
import { iso, lockColumns, lockIdOf, logConditions, roomOf } from '../deviceLog/filter.js';

const columns = {
  id: heartbeats.id, lockId: heartbeats.lockId, ...lockColumns, seq: heartbeats.seq, battery: heartbeats.battery, rssi: heartbeats.rssi,
  snr: heartbeats.snr, firmwareVersion: heartbeats.firmwareVersion, deviceTs: heartbeats.deviceTs, receivedAt: heartbeats.receivedAt,
};

function select(tx: Tx, where: SQL | undefined, byLock: boolean, limit: number, offset = 0) {
  const order = byLock ? [desc(heartbeats.receivedAt), desc(heartbeats.id)] : [desc(heartbeats.id)];
  return tx.select(columns).from(heartbeats).innerJoin(locks, eq(locks.id, heartbeats.lockId)).where(where)
    .orderBy(...order).limit(limit).offset(offset);
}
type Row = Awaited<ReturnType<typeof select>>[number];

function toRecord({ building, floor, roomName, deviceTs, receivedAt, ...row }: Row): HeartbeatLogRecord {
  return { ...row, room: roomOf({ building, floor, roomName }), deviceTs: iso(deviceTs) as string, receivedAt: iso(receivedAt) as string };
}

/** A page of the heartbeat log. */
export async function listHeartbeats(tx: Tx, filter: LogFilter, current: number, size: number): Promise<Page<HeartbeatLogRecord>> {
  const lockId = await lockIdOf(tx, filter);
  if (lockId === null) return { records: [], total: 0, current, size };
  const where = and(...logConditions(filter, lockId, heartbeats.lockId, heartbeats.receivedAt));
  const matching = tx.select(one).from(heartbeats);
  const counted = await cappedCount(tx, (filter.keyword ? matching.innerJoin(locks, eq(locks.id, heartbeats.lockId)) : matching).where(where));
  const rows = await select(tx, where, lockId !== undefined, size, (current - 1) * size);
  return { records: rows.map(toRecord), ...counted, current, size };
}

/** At most `limit` heartbeat rows, newest first. */
export async function exportHeartbeats(tx: Tx, filter: LogFilter, limit: number): Promise<HeartbeatLogRecord[]> {
  const lockId = await lockIdOf(tx, filter);
  if (lockId === null) return [];
  const where = and(...logConditions(filter, lockId, heartbeats.lockId, heartbeats.receivedAt));
  return (await select(tx, where, lockId !== undefined, limit)).map(toRecord);
}
