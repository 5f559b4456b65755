/** 上报日志 queries on `uplinks` (tenant transaction), newest first via uplinks_tenant_time / uplinks_lock_time. */
import type { LogFilter, Page, UplinkLogRecord } from '@iot/contract';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { locks, uplinks } from '../../db/schema.js';
import { iso, lockColumns, lockIdOf, logConditions, roomOf } from '../deviceLog/filter.js';
import { cappedCount, one } from '../deviceLog/count.js';

export type UplinkLogFilter = LogFilter & { type?: string };

async function whereOf(tx: Tx, filter: UplinkLogFilter): Promise<SQL | undefined | null> {
  const lockId = await lockIdOf(tx, filter);
  if (lockId === null) return null;
  const conditions = logConditions(filter, lockId, uplinks.lockId, uplinks.receivedAt);
  if (filter.type) conditions.push(eq(uplinks.type, filter.type));
  return and(...conditions);
}

const columns = {
  id: uplinks.id, lockId: uplinks.lockId, ...lockColumns, seq: uplinks.seq, msgId: uplinks.msgId, type: uplinks.type,
  data: uplinks.data, deviceTs: uplinks.deviceTs, receivedAt: uplinks.receivedAt,
};
type Row = Awaited<ReturnType<typeof select>>[number];

function toRecord({ building, floor, roomName, deviceTs, receivedAt, data, ...row }: Row): UplinkLogRecord {
  return {
    ...row, room: roomOf({ building, floor, roomName }), data: (data ?? {}) as Record<string, unknown>,
    deviceTs: iso(deviceTs) as string, receivedAt: iso(receivedAt) as string,
  };
}

function select(tx: Tx, where: SQL | undefined, limit: number, offset = 0) {
  return tx.select(columns).from(uplinks).innerJoin(locks, eq(locks.id, uplinks.lockId)).where(where)
    .orderBy(desc(uplinks.receivedAt), desc(uplinks.id)).limit(limit).offset(offset);
}

/** A page of the uplink log. */
export async function listUplinks(tx: Tx, filter: UplinkLogFilter, current: number, size: number): Promise<Page<UplinkLogRecord>> {
  const where = await whereOf(tx, filter);
  if (where === null) return { records: [], total: 0, current, size };
  const counted = await cappedCount(tx, tx.select(one).from(uplinks).innerJoin(locks, eq(locks.id, uplinks.lockId)).where(where));
  const rows = await select(tx, where, size, (current - 1) * size);
  return { records: rows.map(toRecord), ...counted, current, size };
}

/** At most `limit` rows of the uplink log, newest first. */
export async function exportUplinks(tx: Tx, filter: UplinkLogFilter, limit: number): Promise<UplinkLogRecord[]> {
  const where = await whereOf(tx, filter);
  return where === null ? [] : (await select(tx, where, limit)).map(toRecord);
}
