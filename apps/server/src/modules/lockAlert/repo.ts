/**
 * 报警日志 / 门锁警告 on the locks' rows of `alerts` (a device log, deviceLog/factory.ts; counted exactly).
 * Time filters apply to last_at (alerts_tenant_time). `activeFirst` orders active alerts first, most severe first, then newest.
 */
import { type AlertRecord, type AlertSeverity, type AlertState, alertDetailText, LOG_LABELS, type LogFilter } from '@iot/contract';
import { asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { alerts } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import * as alertLifecycle from '../deviceAlert/lifecycle.js';
import { defineDeviceLog } from '../deviceLog/factory.js';
import { lockAlerts } from '../deviceAlert/lock.js';

type AlertFilter = LogFilter & {
  kind?: string; severity?: AlertSeverity; state?: AlertState; acknowledged?: boolean; activeFirst?: boolean;
};

const columns = {
  id: alerts.id, lockId: alerts.lockId, kind: alerts.kind, severity: alerts.severity, state: alerts.state,
  occurrences: alerts.occurrences, detail: alerts.detail, firstAt: alerts.firstAt, lastAt: alerts.lastAt, clearedAt: alerts.clearedAt,
  acknowledgedBy: alerts.acknowledgedBy, acknowledgedAt: alerts.acknowledgedAt, acknowledgeNote: alerts.acknowledgeNote,
  // The orders holding the alert (a read of the work-order module's table; its GIN index on alert_ids answers @>).
  workOrders: sql<AlertRecord['workOrders']>`coalesce((select json_agg(json_build_object('id', w.id, 'state', w.state) order by w.id)
    from work_orders w where w.alert_ids @> array[${alerts.id}]::bigint[]), '[]'::json)`,
};
const severityRank = sql`case ${alerts.severity} when 'critical' then 0 when 'major' then 1 when 'minor' then 2 else 3 end`;

/** The alert log: list, rows, routes. */
export const alertLog = defineDeviceLog<AlertFilter, typeof columns, AlertRecord>({
  table: alerts, lockColumn: alerts.lockId, timeColumn: alerts.lastAt, columns, count: 'exact',
  filters: (filter) => [
    eq(alerts.deviceKind, 'lock'),
    filter.kind ? eq(alerts.kind, filter.kind) : undefined,
    filter.severity ? eq(alerts.severity, filter.severity) : undefined,
    filter.state ? eq(alerts.state, filter.state) : undefined,
    filter.acknowledged === undefined ? undefined : filter.acknowledged ? isNotNull(alerts.acknowledgedAt) : isNull(alerts.acknowledgedAt),
  ],
  orderBy: (filter) => (filter.activeFirst
    ? [asc(sql`(${alerts.state} <> 'active')`), asc(severityRank), desc(alerts.lastAt), desc(alerts.id)]
    : [desc(alerts.lastAt), desc(alerts.id)]),
  // One row per condition, not per occurrence (counted exactly): paged by offset, no cursor.
  keyset: () => undefined,
  sortColumns: () => ({ lastAt: alerts.lastAt, firstAt: alerts.firstAt, occurrences: alerts.occurrences }), idColumn: alerts.id,
  toRecord: ({ firstAt, lastAt, clearedAt, acknowledgedAt, workOrders, ...row }) => ({
    ...row, lockId: row.lockId as number, // the filter's device_kind 'lock' (alerts_one_device: lock_id set)
    workOrders: workOrders.map((order) => ({ id: Number(order.id), state: order.state })), severity: row.severity as AlertSeverity, state: row.state as AlertState,
    firstAt: iso(firstAt), lastAt: iso(lastAt), clearedAt: iso(clearedAt), acknowledgedAt: iso(acknowledgedAt),
  }),
  exportName: 'alert-log',
  exportColumns: [
    { header: { 'zh-CN': '最近发生', 'en-US': 'Last at' }, value: (r) => r.lastAt, width: 26, time: true },
    { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
    { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
    { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
    { header: { 'zh-CN': '类型', 'en-US': 'Kind' }, value: (r) => r.kind, labels: LOG_LABELS.kinds },
    { header: { 'zh-CN': '级别', 'en-US': 'Severity' }, value: (r) => r.severity, width: 10, labels: LOG_LABELS.severities },
    { header: { 'zh-CN': '状态', 'en-US': 'State' }, value: (r) => r.state, width: 10, labels: LOG_LABELS.states },
    { header: { 'zh-CN': '次数', 'en-US': 'Occurrences' }, value: (r) => r.occurrences, width: 10 },
    { header: { 'zh-CN': '详情', 'en-US': 'Detail' }, value: (r, language) => alertDetailText(r.kind, r.detail, language), width: 40 },
    { header: { 'zh-CN': '门锁原文', 'en-US': 'Lock text' }, value: (r) => r.detail, width: 24 },
    { header: { 'zh-CN': '首次发生', 'en-US': 'First at' }, value: (r) => r.firstAt, width: 26, time: true },
    { header: { 'zh-CN': '解除时间', 'en-US': 'Cleared at' }, value: (r) => r.clearedAt, width: 26, time: true },
    { header: { 'zh-CN': '确认人', 'en-US': 'Acknowledged by' }, value: (r) => r.acknowledgedBy },
    { header: { 'zh-CN': '确认时间', 'en-US': 'Acknowledged at' }, value: (r) => r.acknowledgedAt, width: 26, time: true },
  ],
});

/** An alert acknowledged by a call of acknowledgeAlerts. */
export interface AcknowledgedAlert {
  id: number;
  tenantId: number;
  lockId: number;
  kind: string;
  severity: string;
  detail: string | null;
}

/** Acknowledges the tenant's unacknowledged alerts among `ids` as `username` now, with `note` (empty: none); returns those that changed. */
export async function acknowledgeAlerts(tx: Tx, ids: readonly number[], username: string, note?: string): Promise<AcknowledgedAlert[]> {
  return (await alertLifecycle.acknowledgeAlerts(tx, lockAlerts, ids, username, note)).map((row) => ({
    id: Number(row.id), tenantId: row.tenant_id, lockId: row.lock_id, kind: row.kind, severity: row.severity, detail: row.detail,
  }));
}
