/** 报警日志 / 门锁警告 routes: alert list, export, acknowledgement. */
import { type AlertRecord, alertEndpoints, LOG_EXPORT_MAX } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../deviceLog/export.js';
import { acknowledgeAlerts, exportAlerts, listAlerts } from './repo.js';

const COLUMNS: ExportColumn<AlertRecord>[] = [
  { header: { 'zh-CN': '最近发生', 'en-US': 'Last at' }, value: (r) => r.lastAt, width: 26 },
  { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
  { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
  { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
  { header: { 'zh-CN': '类型', 'en-US': 'Kind' }, value: (r) => r.kind },
  { header: { 'zh-CN': '级别', 'en-US': 'Severity' }, value: (r) => r.severity, width: 10 },
  { header: { 'zh-CN': '状态', 'en-US': 'State' }, value: (r) => r.state, width: 10 },
  { header: { 'zh-CN': '次数', 'en-US': 'Occurrences' }, value: (r) => r.occurrences, width: 10 },
  { header: { 'zh-CN': '详情', 'en-US': 'Detail' }, value: (r) => r.detail, width: 30 },
  { header: { 'zh-CN': '首次发生', 'en-US': 'First at' }, value: (r) => r.firstAt, width: 26 },
  { header: { 'zh-CN': '解除时间', 'en-US': 'Cleared at' }, value: (r) => r.clearedAt, width: 26 },
  { header: { 'zh-CN': '确认人', 'en-US': 'Acknowledged by' }, value: (r) => r.acknowledgedBy },
  { header: { 'zh-CN': '确认时间', 'en-US': 'Acknowledged at' }, value: (r) => r.acknowledgedAt, width: 26 },
];

/** Registers the alert routes. */
export async function lockAlertRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, alertEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listAlerts(tx, filter, current, size));
  });
  registerEndpoint(app, alertEndpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, ...filter } = query;
    const rows = await inTenant((tx) => exportAlerts(tx, filter, LOG_EXPORT_MAX + 1));
    return sendExport({ request, reply, format, name: 'alert-log', columns: COLUMNS, rows });
  }, { raw: true });
  registerEndpoint(app, alertEndpoints.acknowledge, async ({ body, inTenant, principal }) => ({
    acknowledged: await inTenant((tx) => acknowledgeAlerts(tx, body.ids, principal.username)),
  }));
}
