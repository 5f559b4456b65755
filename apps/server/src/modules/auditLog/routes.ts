/** System log routes (系统日志): the tenant's log page by page, and its CSV / Excel export. */
import {
  auditActionText, auditChangesText, auditDetailText, ERRORS, type LocalizedText, AUDIT_LOG_EXPORT_MAX, type AuditLogRecord, auditLogEndpoints,
  localized as t,
} from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../../http/export.js';
import { exportAudit, listAudit } from './repo.js';
import { timeZoneOf } from '../tenant/settings.js';


/** `success`, or the error code's message. */
const RESULT_LABELS: Record<string, LocalizedText> = {
  success: t('成功', 'Success'),
  ...Object.fromEntries(Object.entries(ERRORS).map(([code, error]) => [code, error.message])),
};

/** Columns of the export, headers and labels in both languages (the console's 系统日志 column titles). */
const COLUMNS: ExportColumn<AuditLogRecord>[] = [
  { header: t('编号', 'ID'), value: (r) => r.id, width: 10 },
  { header: t('时间', 'Time'), value: (r) => r.createdAt, width: 26, time: true },
  { header: t('用户名', 'Username'), value: (r) => r.username },
  { header: t('操作', 'Action'), value: (r, language) => auditActionText(r.action, r.detail, language), width: 28 },
  { header: t('请求', 'Request'), value: (r) => r.action, width: 32 },
  { header: t('对象', 'Target'), value: (r) => (r.targetName ? `${r.targetName} (#${r.target})` : r.target), width: 28 },
  { header: t('结果', 'Result'), value: (r) => r.result, width: 20, labels: RESULT_LABELS },
  { header: t('客户端地址', 'Client address'), value: (r) => r.clientIp, width: 16 },
  { header: t('详情', 'Detail'), value: (r, language) => [...auditChangesText(r.changes, language), ...auditDetailText(r.detail, language, ['action'])].join('; '), width: 60 },
];

/** Registers the system-log routes. */
export async function auditLogRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, auditLogEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listAudit(tx, filter, current, size));
  });
  registerEndpoint(app, auditLogEndpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, timeZone, ...filter } = query;
    const rows = await inTenant((tx) => exportAudit(tx, filter, AUDIT_LOG_EXPORT_MAX + 1));
    return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: 'system-log', columns: COLUMNS, rows, max: AUDIT_LOG_EXPORT_MAX });
  }, { raw: true });
}
