/**
 * Air switch alarms on the shared 报警日志 (authority LOCK_ALERT_LOG): the alarm log's device
 * kind "air switch", answered by the air switch module (table alerts, device kind airSwitch). The locks' lifecycle
 * (active -> cleared, occurrences, acknowledgement) and the log's filters: time range of the latest
 * occurrence, keyword (serial, name or location, substring), kind, severity, state, acknowledged;
 * newest first unless sorted; CSV / Excel export; acknowledgement of one or many.
 */
import { z } from 'zod';
import { AIR_SWITCH_ALERT_KINDS, airSwitchAlertRecord } from './airSwitch.js';
import { exportFields, exportResponse } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';
import { int4Id, keyword, queryFlag } from './input.js';
import { ALERT_SEVERITIES, ALERT_STATES, alertAcknowledgeBody } from './lockAlert.js';
import { isoTime, timeOrder } from './time.js';

/** The device kinds of the alarm log (its filter; each kind is answered by its own endpoints). */
export const ALARM_LOG_DEVICE_KINDS = ['lock', 'airSwitch'] as const;
export type AlarmLogDeviceKind = (typeof ALARM_LOG_DEVICE_KINDS)[number];

/** Air switch alarm columns the server sorts by. */
export const AIR_SWITCH_ALERT_SORT_FIELDS = ['lastAt', 'firstAt', 'occurrences'] as const;

const filterFields = {
  /** Alarms whose latest occurrence is at or after / at or before (ISO 8601 with offset). */
  startTime: isoTime.optional(),
  endTime: isoTime.optional(),
  keyword: keyword().optional(),
  airSwitchId: int4Id.optional(),
  kind: z.enum(AIR_SWITCH_ALERT_KINDS as [string, ...string[]]).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  state: z.enum(ALERT_STATES).optional(),
  /** true: acknowledged only; false: unacknowledged only. */
  acknowledged: queryFlag.optional(),
  ...sortFields(AIR_SWITCH_ALERT_SORT_FIELDS),
};
export const airSwitchAlertLogQuery = pageQuery.extend(filterFields).refine(...timeOrder);
export type AirSwitchAlertLogFilter = Omit<z.output<typeof airSwitchAlertLogQuery>, 'current' | 'size'>;

export const airSwitchAlertLogEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/alertLog/list', access: 'LOCK_ALERT_LOG', kind: 'token',
    query: airSwitchAlertLogQuery, response: pageOf(airSwitchAlertRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/alertLog/export', access: 'LOCK_ALERT_LOG', kind: 'token',
    query: z.object({ ...filterFields, ...exportFields }).refine(...timeOrder), response: exportResponse,
  }),
  /** Marks the data centre's unacknowledged air switch alarms among `ids` as acknowledged by the caller; returns how many changed. */
  acknowledge: endpoint({
    method: 'POST', path: '/iot/v1/airSwitch/alertLog/acknowledge', access: 'LOCK_ALERT_LOG', kind: 'token',
    action: { label: { 'zh-CN': '确认空开报警', 'en-US': 'Acknowledge air switch alarms' }, target: ['ids'] },
    body: alertAcknowledgeBody, response: z.object({ acknowledged: z.number().int() }),
  }),
};
