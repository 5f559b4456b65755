/**
 * 报警日志 / 门锁警告 queries on `alerts` (tenant transaction). Time filters apply to last_at
 * (alerts_tenant_time). `activeFirst` orders active alerts first, most severe first, then newest.
 */
import type { AlertRecord, AlertSeverity, AlertState, LogFilter, Page } from '@iot/contract';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { alerts, locks } from '../../db/schema.js';
import { iso, lockColumns, lockIdOf, logConditions, roomOf } from '../deviceLog/filter.js';

export type AlertFilter = LogFilter & {
  kind?: string; severity?: AlertSeverity; state?: AlertState; acknowledged?: boolean; activeFirst?: boolean;
};

async function whereOf(tx: Tx, filter: AlertFilter): Promise<SQL | undefined | null> {
  const lockId = await lockIdOf(tx, filter);
  if (lockId === null) return null;
  const conditions = logConditions(filter, lockId, alerts.lockId, alerts.lastAt);
  if (filter.kind) conditions.push(eq(alerts.kind, filter.kind));
  if (filter.severity) conditions.push(eq(alerts.severity, filter.severity));
  if (filter.state) conditions.push(eq(alerts.state, filter.state));
  if (filter.acknowledged !== undefined) conditions.push(filter.acknowledged ? isNotNull(alerts.acknowledgedAt) : isNull(alerts.acknowledgedAt));
  return and(...conditions);
}

const columns = {
  id: alerts.id, lockId: alerts.lockId, ...lockColumns, kind: alerts.kind, severity: alerts.severity, state: alerts.state,
  occurrences: alerts.occurrences, detail: alerts.detail, firstAt: alerts.firstAt, lastAt: alerts.lastAt, clearedAt: alerts.clearedAt,
  acknowledgedBy: alerts.acknowledgedBy, acknowledgedAt: alerts.acknowledgedAt,
};
const severityRank = sql`case ${alerts.severity} when 'critical' then 0 when 'major' then 1 when 'minor' then 2 else 3 end`;

function select(tx: Tx, where: SQL | undefined, activeFirst: boolean, limit: number, offset = 0) {
  const order = activeFirst
    ? [asc(sql`(${alerts.state} <> 'active')`), asc(severityRank), desc(alerts.lastAt), desc(alerts.id)]
    : [desc(alerts.lastAt), desc(alerts.id)];
  return tx.select(columns).from(alerts).innerJoin(locks, eq(locks.id, alerts.lockId)).where(where).orderBy(...order).limit(limit).offset(offset);
}
type Row = Awaited<ReturnType<typeof select>>[number];

function toRecord({ building, floor, roomName, firstAt, lastAt, clearedAt, acknowledgedAt, ...row }: Row): AlertRecord {
  return {
    ...row, severity: row.severity as AlertSeverity, state: row.state as AlertState, room: roomOf({ building, floor, roomName }),
    firstAt: iso(firstAt) as string, lastAt: iso(lastAt) as string, clearedAt: iso(clearedAt), acknowledgedAt: iso(acknowledgedAt),
  };
}

/** A page of alerts. */
export async function listAlerts(tx: Tx, filter: AlertFilter, current: number, size: number): Promise<Page<AlertRecord>> {
  const where = await whereOf(tx, filter);
  if (where === null) return { records: [], total: 0, current, size };
  const [total] = await tx.select({ n: count() }).from(alerts).innerJoin(locks, eq(locks.id, alerts.lockId)).where(where);
  const rows = await select(tx, where, filter.activeFirst ?? false, size, (current - 1) * size);
  return { records: rows.map(toRecord), total: total?.n ?? 0, current, size };
}

/** At most `limit` alerts in list order. */
export async function exportAlerts(tx: Tx, filter: AlertFilter, limit: number): Promise<AlertRecord[]> {
  const where = await whereOf(tx, filter);
  return where === null ? [] : (await select(tx, where, filter.activeFirst ?? false, limit)).map(toRecord);
}

/** Acknowledges the tenant's unacknowledged alerts among `ids` as `username` now; returns how many changed. */
export async function acknowledgeAlerts(tx: Tx, ids: readonly number[], username: string): Promise<number> {
  const rows = await tx.update(alerts).set({ acknowledgedBy: username, acknowledgedAt: sql`now()` })
    .where(and(inArray(alerts.id, [...ids]), isNull(alerts.acknowledgedAt))).returning({ id: alerts.id });
  return rows.length;
}
