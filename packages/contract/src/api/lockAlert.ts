/**
 * 报警日志 / 门锁警告 (spec §7 /iot/v1/lockAlert/list): alerts raised by lock alarms. An
 * alert is `active` until the lock reports the condition cleared; a repeat of an active alert adds to
 * its `occurrences`. Operators acknowledge alerts (who and when is recorded).
 */
import { z } from 'zod';
import { int8Id, queryFlag, text } from './input.js';
import { type ALERT_KINDS, alertKind } from '../protocol/index.js';
import { exportResponse, lockRefRecord, logQueries } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf } from './envelope.js';
import { WORK_ORDER_STATES } from './workOrder.js';

export const ALERT_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const satisfies readonly (typeof ALERT_KINDS)[keyof typeof ALERT_KINDS][];
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_STATES = ['active', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
/** At most this many alerts acknowledged in one call. */
export const ACKNOWLEDGE_MAX = 500;
/** An acknowledgement's note, characters. */
export const ACKNOWLEDGE_NOTE_MAX = 500;

/** Alert columns the server sorts by. */
export const ALERT_SORT_FIELDS = ['lastAt', 'firstAt', 'occurrences'] as const;
export const alertLogQueries = logQueries({
  kind: alertKind.optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  state: z.enum(ALERT_STATES).optional(),
  /** true: acknowledged only; false: unacknowledged only. */
  acknowledged: queryFlag.optional(),
  /** Order active alerts first, most severe first, then newest (门锁警告); default: newest first. */
  activeFirst: queryFlag.optional(),
}, ALERT_SORT_FIELDS);

export const alertRecord = z.object({
  id: z.number().int(),
  ...lockRefRecord,
  kind: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(ALERT_STATES),
  occurrences: z.number().int(),
  detail: z.string().nullable(),
  /** ISO 8601 UTC: first and latest occurrence, clearing, acknowledgement. */
  firstAt: z.string(),
  lastAt: z.string(),
  clearedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  /** The note given with the acknowledgement. */
  acknowledgeNote: z.string().nullable(),
  /** The work orders this alert is in, oldest first, with their states (the alert shows its orders). */
  workOrders: z.array(z.object({ id: z.number().int(), state: z.enum(WORK_ORDER_STATES) })),
});
export type AlertRecord = z.infer<typeof alertRecord>;

export const acknowledgeBody = z.strictObject({ ids: z.array(int8Id).min(1).max(ACKNOWLEDGE_MAX) });
/** A lock alert's acknowledgement may carry a note: what was done, who went. */
export const alertAcknowledgeBody = acknowledgeBody.extend({ note: text().trim().max(ACKNOWLEDGE_NOTE_MAX).optional() });

export const alertEndpoints = {
  /** Filters: time range (latest occurrence), lock, keyword, kind, severity, state, acknowledged. */
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockAlert/list', access: 'LOCK_ALERT_LOG', kind: 'token',
    query: alertLogQueries.list, response: pageOf(alertRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/lockAlert/export', access: 'LOCK_ALERT_LOG', kind: 'token',
    query: alertLogQueries.export, response: exportResponse,
  }),
  /** Marks the tenant's unacknowledged alerts among `ids` as acknowledged by the caller; returns how many changed. */
  acknowledge: endpoint({
    method: 'POST', path: '/iot/v1/lockAlert/acknowledge', access: 'LOCK_ALERT_LOG', kind: 'token', action: { label: { 'zh-CN': '确认告警', 'en-US': 'Acknowledge alerts' }, target: ['ids'] },
    body: alertAcknowledgeBody, response: z.object({ acknowledged: z.number().int() }),
  }),
};
