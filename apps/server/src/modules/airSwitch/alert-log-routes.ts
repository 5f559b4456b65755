/**
 * The shared 报警日志's device kind "air switch" (LOCK_ALERT_LOG): the data centre's air
 * switch alarms listed and exported with the log's filters, and acknowledged (one call, one
 * transaction with its system-log row), all through this module's alarm services.
 */
import { type AirSwitchAlertRecord, airSwitchAlertLogEndpoints, type LocalizedText, LOG_EXPORT_MAX, LOG_LABELS, localized as h } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../../http/export.js';
import { airSwitchAlertRows, listAirSwitchAlerts } from './alert-log.js';
import { acknowledgeAirSwitchAlerts } from '../deviceAlert/air-switch.js';
import { timeZoneOf } from '../tenant/settings.js';

const tripReasons: Readonly<Record<string, LocalizedText>> = LOG_LABELS.tripReasons;
const COLUMNS: ExportColumn<AirSwitchAlertRecord>[] = [
  { header: h('最近发生', 'Last at'), value: (r) => r.lastAt, width: 26, time: true },
  { header: h('序列号', 'Serial'), value: (r) => r.serial },
  { header: h('空开', 'Air switch'), value: (r) => r.airSwitchName, width: 24 },
  { header: h('回路', 'Circuit'), value: (r) => r.circuit, width: 8 },
  { header: h('类型', 'Kind'), value: (r) => r.kind, labels: LOG_LABELS.airSwitchKinds },
  { header: h('级别', 'Severity'), value: (r) => r.severity, width: 10, labels: LOG_LABELS.severities },
  { header: h('状态', 'State'), value: (r) => r.state, width: 10, labels: LOG_LABELS.states },
  { header: h('次数', 'Occurrences'), value: (r) => r.occurrences, width: 10 },
  { header: h('详情', 'Detail'), value: (r, language) => (r.kind === 'trip' && r.detail ? (tripReasons[r.detail]?.[language] ?? r.detail) : r.detail), width: 24 },
  { header: h('首次发生', 'First at'), value: (r) => r.firstAt, width: 26, time: true },
  { header: h('解除时间', 'Cleared at'), value: (r) => r.clearedAt, width: 26, time: true },
  { header: h('确认人', 'Acknowledged by'), value: (r) => r.acknowledgedBy },
  { header: h('确认时间', 'Acknowledged at'), value: (r) => r.acknowledgedAt, width: 26, time: true },
  { header: h('确认备注', 'Acknowledgement note'), value: (r) => r.acknowledgeNote, width: 30 },
];

/** Registers the air switch routes of the alarm log. */
export function airSwitchAlertLogRoutes(app: FastifyInstance): void {
  const endpoints = airSwitchAlertLogEndpoints;
  registerEndpoint(app, endpoints.list, ({ query, inTenant }) => inTenant((tx) => listAirSwitchAlerts(tx, query)));
  registerEndpoint(app, endpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, timeZone, ...filter } = query;
    const rows = await inTenant((tx) => airSwitchAlertRows(tx, filter, LOG_EXPORT_MAX));
    return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: 'air-switch-alert-log', columns: COLUMNS, rows });
  }, { raw: true });
  registerEndpoint(app, endpoints.acknowledge, ({ body, principal, inTenant }) =>
    inTenant(async (tx) => ({ acknowledged: await acknowledgeAirSwitchAlerts(tx, body.ids, principal.username, body.note) })));
}
