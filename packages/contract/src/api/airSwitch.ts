/**
 * 空开分析 airSwitchAnalysis (authority AIRSWITCH_RULE): air switches with their circuits and
 * live readings, remote on/off per circuit and per-circuit thresholds as commands (protocol
 * COMMAND_STATES), their alarms (the locks' lifecycle: active -> cleared, acknowledged), and energy
 * analysis read from hourly/daily rollups. Dates are calendar days in the operator's `timeZone`.
 */
import { z } from 'zod';
import {
  AIR_SWITCH_ALARM_KINDS, AIR_SWITCH_DOWNLINK_TYPES, airSwitchIdSchema, circuitNo, circuitThresholds, circuitThresholdsInput, COMMAND_STATES, SWITCH_STATES, TRIP_REASONS,
} from '../protocol/index.js';
import type { ElectricalRatings } from '../ratings.js';
import { exportFields, exportResponse } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { alertAcknowledgeBody } from './lockAlert.js';
import { int4Id, int8Id, keyword, text } from './input.js';
import { calendarDay } from './time.js';
import { localized as label } from '../i18n.js';

/** Seeded air switch device types (kind airSwitch, always online): model -> electrical ratings (contract ratings.ts) and reporting interval. */
export const AIR_SWITCH_MODELS: Record<string, ElectricalRatings & { telemetryIntervalS: number }> = {
  'ZG-AS2': { circuits: 2, telemetryIntervalS: 10, ratedCurrentA: 40, ratedVoltageV: 220, leakageMa: { min: 10, max: 300 } },
  'ZG-AS4': { circuits: 4, telemetryIntervalS: 10, ratedCurrentA: 63, ratedVoltageV: 220, leakageMa: { min: 10, max: 300 } },
};
/** Load profile of a simulated air switch (apps/simulator). */
export const LOAD_PROFILES = ['office', 'shop', 'residence'] as const;

const isoOrNull = z.string().nullable();
const num = z.number().nullable();
const ALERT_STATES = ['active', 'cleared'] as const;
export const AIR_SWITCH_ALERT_KINDS = ['trip', ...Object.keys(AIR_SWITCH_ALARM_KINDS)] as readonly string[];

export const circuitRecord = z.object({
  id: z.number().int(),
  circuit: z.number().int(),
  name: z.string(),
  state: z.enum(SWITCH_STATES).nullable(),
  tripReason: z.enum(TRIP_REASONS).nullable(),
  voltage: num, current: num, power: num, powerFactor: num, energyKwh: num, leakageMa: num, temperatureC: num,
  readingAt: isoOrNull,
  /** Thresholds the platform wants, and those the device last reported. */
  desiredThresholds: circuitThresholds,
  reportedThresholds: circuitThresholds.nullable(),
  /** desired equals reported. */
  thresholdsInSync: z.boolean(),
});
export type CircuitRecord = z.infer<typeof circuitRecord>;

export const airSwitchRecord = z.object({
  id: z.number().int(),
  serial: z.string(),
  name: z.string(),
  model: z.string(),
  location: z.string(),
  enabled: z.boolean(),
  simulated: z.boolean(),
  online: z.boolean(),
  lastUplinkAt: isoOrNull,
  createdAt: z.string(),
  circuits: z.array(circuitRecord),
  /** Its device type's electrical ratings (ratings.ts): thresholds are checked against them; null for a model without. */
  ratings: z.object({
    circuits: z.number().int(), ratedCurrentA: z.number().int(), ratedVoltageV: z.number().int(),
    leakageMa: z.object({ min: z.number().int(), max: z.number().int() }),
  }).nullable(),
});
export type AirSwitchRecord = z.infer<typeof airSwitchRecord>;

export const airSwitchCommandRecord = z.object({
  id: z.number().int(),
  msgId: z.string(),
  airSwitchId: z.number().int(),
  circuit: z.number().int(),
  type: z.enum(AIR_SWITCH_DOWNLINK_TYPES as ['switch', 'thresholds']),
  data: z.record(z.string(), z.unknown()),
  state: z.enum(COMMAND_STATES),
  createdBy: z.string(),
  createdAt: z.string(),
  sentAt: isoOrNull, deliveredAt: isoOrNull, completedAt: isoOrNull,
  resultCode: z.number().int().nullable(),
  resultDetail: z.string().nullable(),
});
export type AirSwitchCommandRecord = z.infer<typeof airSwitchCommandRecord>;

export const airSwitchAlertRecord = z.object({
  id: z.number().int(),
  airSwitchId: z.number().int(),
  serial: z.string(),
  airSwitchName: z.string(),
  circuit: z.number().int(),
  kind: z.string(),
  severity: z.string(),
  state: z.enum(ALERT_STATES),
  occurrences: z.number().int(),
  detail: z.string().nullable(),
  firstAt: z.string(), lastAt: z.string(), clearedAt: isoOrNull,
  acknowledgedBy: z.string().nullable(), acknowledgedAt: isoOrNull,
  /** The note given with the acknowledgement, as on lock alerts. */
  acknowledgeNote: z.string().nullable(),
});
export type AirSwitchAlertRecord = z.infer<typeof airSwitchAlertRecord>;

/** Range, granularity and zone of the energy analysis. */
const energyFields = {
  /** First and last calendar day, inclusive, in `timeZone`; at most 366 days. */
  from: calendarDay,
  to: calendarDay,
  granularity: z.enum(['day', 'month']).default('day'),
  timeZone: exportFields.timeZone.default('Asia/Shanghai'),
  /** One switch, or all of the data centre. */
  airSwitchId: int4Id.optional(),
};
const rangeOk = (q: { from: string; to: string }) => q.from <= q.to && Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000;
const rangeError = { message: 'from must not be after to, at most 366 days', path: ['to'] };
export const energyQuery = z.object(energyFields).refine(rangeOk, rangeError);

export const energyAnalysis = z.object({
  /** kWh per circuit per period (YYYY-MM-DD or YYYY-MM). */
  byCircuit: z.array(z.object({ period: z.string(), circuitId: z.number().int(), airSwitchName: z.string(), circuit: z.number().int(), circuitName: z.string(), kwh: z.number() })),
  /** Per period: kWh, peak demand W (highest hourly average of the summed circuits) and trips. */
  byPeriod: z.array(z.object({ period: z.string(), kwh: z.number(), peakW: z.number(), trips: z.number().int() })),
  /** Circuits by kWh over the range, most first (at most 10). */
  top: z.array(z.object({ circuitId: z.number().int(), airSwitchName: z.string(), circuit: z.number().int(), circuitName: z.string(), kwh: z.number() })),
  /** Today's load (in timeZone): average and highest W per hour of the summed circuits. */
  loadCurve: z.array(z.object({ hour: z.string(), avgW: z.number(), maxW: z.number() })),
});
export type EnergyAnalysis = z.infer<typeof energyAnalysis>;

const ref = { id: int4Id };
export const airSwitchEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/list', access: 'AIRSWITCH_RULE', kind: 'token',
    query: pageQuery.extend({ keyword: keyword().optional() }), response: pageOf(airSwitchRecord),
  }),
  detail: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/detail', access: 'AIRSWITCH_RULE', kind: 'token',
    query: z.object(ref), response: airSwitchRecord.extend({ commands: z.array(airSwitchCommandRecord) }),
  }),
  /** Registers an air switch; the device secret is shown once. */
  add: endpoint({
    method: 'POST', path: '/iot/v1/airSwitch/add', access: 'AIRSWITCH_RULE', kind: 'token',
    body: z.strictObject({
      serial: airSwitchIdSchema, name: text().trim().min(1).max(64), model: text().trim().min(1).max(32),
      location: text().trim().max(128).default(''), simulated: z.boolean().default(false),
    }),
    response: z.object({ id: z.number().int(), secret: z.string() }),
    action: { label: label('登记空开', 'Register air switch'), target: ['serial'] },
  }),
  /** Switches a circuit on or off: a command sent at once (it cuts or restores power). */
  switch: endpoint({
    method: 'POST', path: '/iot/v1/airSwitch/switch', access: 'AIRSWITCH_RULE', kind: 'token',
    body: z.strictObject({ ...ref, circuit: circuitNo, on: z.boolean() }), response: airSwitchCommandRecord,
    action: { label: label('远程分合闸', 'Switch circuit remotely'), target: ['id'], entity: 'airSwitch' },
  }),
  /** Sets a circuit's desired thresholds and pushes them as a command. */
  thresholds: endpoint({
    method: 'POST', path: '/iot/v1/airSwitch/thresholds', access: 'AIRSWITCH_RULE', kind: 'token',
    body: z.strictObject({ ...ref, circuit: circuitNo, thresholds: circuitThresholdsInput }), response: airSwitchCommandRecord,
    action: { label: label('下发空开阈值', 'Push circuit thresholds'), target: ['id'], entity: 'airSwitch' },
  }),
  command: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/command', access: 'AIRSWITCH_RULE', kind: 'token',
    query: z.object({ id: int8Id }), response: airSwitchCommandRecord,
  }),
  alerts: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/alerts', access: 'AIRSWITCH_RULE', kind: 'token',
    query: pageQuery.extend({ airSwitchId: int4Id.optional(), state: z.enum(ALERT_STATES).optional() }), response: pageOf(airSwitchAlertRecord),
  }),
  acknowledgeAlerts: endpoint({
    method: 'POST', path: '/iot/v1/airSwitch/alerts/acknowledge', access: 'AIRSWITCH_RULE', kind: 'token',
    body: alertAcknowledgeBody, response: z.object({ acknowledged: z.number().int() }),
    action: { label: label('确认空开报警', 'Acknowledge air switch alarms'), target: ['ids'] },
  }),
  energy: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/energy', access: 'AIRSWITCH_RULE', kind: 'token', query: energyQuery, response: energyAnalysis,
  }),
  /** One chart of the analysis as .xlsx (headers in the caller's language). */
  energyExport: endpoint({
    method: 'GET', path: '/iot/v1/airSwitch/energy/export', access: 'AIRSWITCH_RULE', kind: 'token',
    query: z.object({ ...energyFields, chart: z.enum(['byCircuit', 'byPeriod', 'top', 'loadCurve']), format: exportFields.format }).refine(rangeOk, rangeError),
    response: exportResponse,
  }),
};
