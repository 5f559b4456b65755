/**
 * Reading air switch alarms (table alerts, modules/deviceAlert's): the 空开分析 page's list (active
 * first) and the shared 报警日志's device kind "air switch" (newest first, or sorted), with the log's
 * filters, a page or the rows of an export. In the caller's tenant transaction: another data centre's
 * alarms are invisible. Times ISO 8601 UTC.
 */
import type { AirSwitchAlertLogFilter, AirSwitchAlertRecord, Page } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { containsPattern } from '../../db/sql.js';

/** Filters of either list; `activeFirst`: active alarms first, then newest (the 空开分析 page). */
export type AirSwitchAlertQuery = Partial<AirSwitchAlertLogFilter> & { activeFirst?: boolean };

type AlertRow = {
  id: number; air_switch_id: number; serial: string; name: string; circuit: number; kind: string; severity: string; state: 'active' | 'cleared';
  occurrences: number; detail: string | null; first_at: Date | string; last_at: Date | string; cleared_at: Date | string | null;
  acknowledged_by: string | null; acknowledged_at: Date | string | null; acknowledge_note: string | null; total?: number;
};
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const SORT_COLUMNS = { lastAt: sql`a.last_at`, firstAt: sql`a.first_at`, occurrences: sql`a.occurrences` };

function where(q: AirSwitchAlertQuery): SQL {
  const conditions: SQL[] = [sql`a.device_kind = 'airSwitch'`];
  if (q.airSwitchId !== undefined) conditions.push(sql`a.air_switch_id = ${q.airSwitchId}`);
  if (q.state) conditions.push(sql`a.state = ${q.state}`);
  if (q.kind) conditions.push(sql`a.kind = ${q.kind}`);
  if (q.severity) conditions.push(sql`a.severity = ${q.severity}`);
  if (q.acknowledged !== undefined) conditions.push(q.acknowledged ? sql`a.acknowledged_at is not null` : sql`a.acknowledged_at is null`);
  if (q.startTime) conditions.push(sql`a.last_at >= ${q.startTime}::timestamptz`);
  if (q.endTime) conditions.push(sql`a.last_at <= ${q.endTime}::timestamptz`);
  if (q.keyword) {
    const pattern = containsPattern(q.keyword);
    conditions.push(sql`(s.serial ilike ${pattern} or s.name ilike ${pattern} or s.location ilike ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

function orderBy(q: AirSwitchAlertQuery): SQL {
  if (q.sortField) return sql`${SORT_COLUMNS[q.sortField]} ${q.sortOrder === 'ascend' ? sql`asc` : sql`desc`}, a.id desc`;
  return q.activeFirst ? sql`(a.state <> 'active'), a.last_at desc, a.id desc` : sql`a.last_at desc, a.id desc`;
}

const select = (q: AirSwitchAlertQuery, extra: SQL) => sql`
  select a.id, a.air_switch_id, s.serial, s.name, a.circuit, a.kind, a.severity, a.state, a.occurrences, a.detail, a.first_at, a.last_at,
    a.cleared_at, a.acknowledged_by, a.acknowledged_at, a.acknowledge_note ${extra}
  from alerts a join air_switches s on s.id = a.air_switch_id where ${where(q)} order by ${orderBy(q)}`;

const toRecord = (r: AlertRow): AirSwitchAlertRecord => ({
  id: Number(r.id), airSwitchId: r.air_switch_id, serial: r.serial, airSwitchName: r.name, circuit: r.circuit, kind: r.kind, severity: r.severity,
  state: r.state, occurrences: r.occurrences, detail: r.detail, firstAt: iso(r.first_at) as string, lastAt: iso(r.last_at) as string,
  clearedAt: iso(r.cleared_at), acknowledgedBy: r.acknowledged_by, acknowledgedAt: iso(r.acknowledged_at), acknowledgeNote: r.acknowledge_note,
});

/** A page of the data centre's air switch alarms (see the module comment). */
export async function listAirSwitchAlerts(tx: Executor, q: AirSwitchAlertQuery & { current: number; size: number }): Promise<Page<AirSwitchAlertRecord>> {
  const rows = rowsOf<AlertRow>(await tx.execute(sql`${select(q, sql`, count(*) over () as total`)} limit ${q.size} offset ${(q.current - 1) * q.size}`));
  return { records: rows.map(toRecord), total: Number(rows[0]?.total ?? 0), current: q.current, size: q.size };
}

/** Up to `max` + 1 alarms for an export, in the list's order (one more than `max` means "truncated"). */
export async function airSwitchAlertRows(tx: Executor, q: AirSwitchAlertQuery, max: number): Promise<AirSwitchAlertRecord[]> {
  return rowsOf<AlertRow>(await tx.execute(sql`${select(q, sql``)} limit ${max + 1}`)).map(toRecord);
}
