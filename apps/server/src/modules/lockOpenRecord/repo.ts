/** 开锁日志 queries on `open_records` (tenant transaction), newest first via open_records_tenant_time / _lock_time. */
import type { LogFilter, OpenRecordRecord, Page, protocol } from '@iot/contract';

type OpenMethod = protocol.OpenMethod;
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { locks, openRecords } from '../../db/schema.js';
import { iso, lockColumns, lockIdOf, logConditions, roomOf } from '../deviceLog/filter.js';
import { cappedCount, one } from '../deviceLog/count.js';

export type OpenRecordFilter = LogFilter & { method?: OpenMethod; success?: boolean };

async function whereOf(tx: Tx, filter: OpenRecordFilter): Promise<SQL | undefined | null> {
  const lockId = await lockIdOf(tx, filter);
  if (lockId === null) return null;
  const conditions = logConditions(filter, lockId, openRecords.lockId, openRecords.receivedAt);
  if (filter.method) conditions.push(eq(openRecords.method, filter.method));
  if (filter.success !== undefined) conditions.push(eq(openRecords.success, filter.success));
  return and(...conditions);
}

const columns = {
  id: openRecords.id, lockId: openRecords.lockId, ...lockColumns, uplinkId: openRecords.uplinkId, method: openRecords.method,
  slot: openRecords.slot, userSlot: openRecords.userSlot, success: openRecords.success, lockTime: openRecords.lockTime,
  receivedAt: openRecords.receivedAt,
};

function select(tx: Tx, where: SQL | undefined, limit: number, offset = 0) {
  return tx.select(columns).from(openRecords).innerJoin(locks, eq(locks.id, openRecords.lockId)).where(where)
    .orderBy(desc(openRecords.receivedAt), desc(openRecords.id)).limit(limit).offset(offset);
}
type Row = Awaited<ReturnType<typeof select>>[number];

function toRecord({ building, floor, roomName, lockTime, receivedAt, ...row }: Row): OpenRecordRecord {
  return {
    ...row, method: row.method as OpenMethod, room: roomOf({ building, floor, roomName }),
    lockTime: iso(lockTime) as string, receivedAt: iso(receivedAt) as string,
  };
}

/** A page of unlock records. */
export async function listOpenRecords(tx: Tx, filter: OpenRecordFilter, current: number, size: number): Promise<Page<OpenRecordRecord>> {
  const where = await whereOf(tx, filter);
  if (where === null) return { records: [], total: 0, current, size };
  const counted = await cappedCount(tx, tx.select(one).from(openRecords).innerJoin(locks, eq(locks.id, openRecords.lockId)).where(where));
  const rows = await select(tx, where, size, (current - 1) * size);
  return { records: rows.map(toRecord), ...counted, current, size };
}

/** At most `limit` unlock records matching `filter`, newest first (exports, one lock's latest). */
export async function latestOpenRecords(tx: Tx, filter: OpenRecordFilter, limit: number): Promise<OpenRecordRecord[]> {
  const where = await whereOf(tx, filter);
  return where === null ? [] : (await select(tx, where, limit)).map(toRecord);
}
