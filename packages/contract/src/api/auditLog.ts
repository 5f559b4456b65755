/**
 * The audit log, shown as the system log (系统日志, spec §7 "Logs": /iot/v1/SysOperateLog/getLogList): sign-ins, sign-outs
 * and every mutating call of the tenant, newest first, and its CSV / Excel export. Rows never hold secrets.
 */
import { z } from 'zod';
import { exportFields, exportResponse } from './deviceLog.js';
import { keyword } from './input.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';
import { isoTime, timeOrder } from './time.js';

/** System-log columns the server sorts by. */
export const AUDIT_LOG_SORT_FIELDS = ['createdAt', 'username', 'action', 'result'] as const;
const filterFields = {
  ...sortFields(AUDIT_LOG_SORT_FIELDS),
  /** Matches username, action or target (substring, case-insensitive). */
  keyword: keyword().optional(),
  /** Exact action, e.g. `sign-in` or `POST /v1/sysRole/add`. */
  action: keyword(128).optional(),
  /** Exact result: `success` or an error code. */
  result: keyword().optional(),
  /** ISO 8601 with offset; rows at or after. */
  startTime: isoTime.optional(),
  /** ISO 8601 with offset; rows at or before. */
  endTime: isoTime.optional(),
};

export const auditLogQuery = pageQuery.extend(filterFields).refine(...timeOrder);
export const auditLogExportQuery = z.object({ ...filterFields, ...exportFields }).refine(...timeOrder);
export type AuditLogFilter = Omit<z.infer<typeof auditLogExportQuery>, keyof typeof exportFields>;

export const auditLogRecord = z.object({
  id: z.number().int(),
  username: z.string(),
  action: z.string(),
  target: z.string(),
  result: z.string(),
  clientIp: z.string(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  /** Whitelisted non-secret request fields (ids, names), or null. */
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** The target object's name when the change was made (a lock's name for its id), or null when `target` is a name already. */
  targetName: z.string().nullable(),
  /** An edit's changed fields, `{ field: [before, after] }` (auditChangesText says them), or null. */
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).nullable(),
});
export type AuditLogRecord = z.infer<typeof auditLogRecord>;

export const auditLogEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/SysOperateLog/getLogList', access: 'SYSTEM_LOG', kind: 'token',
    query: auditLogQuery, response: pageOf(auditLogRecord),
  }),
  /** text/csv (UTF-8 with BOM) or an .xlsx workbook, not enveloped; at most AUDIT_LOG_EXPORT_MAX rows, newest first. */
  export: endpoint({
    method: 'GET', path: '/iot/v1/SysOperateLog/export', access: 'SYSTEM_LOG', kind: 'token', query: auditLogExportQuery, response: exportResponse,
  }),
};
