/**
 * The air switch (智能空开) device protocol over MQTT (docs/protocol.md "Air switches").
 * Topics: `as/{id}/up` device -> platform, `as/{id}/down` platform -> device; the same envelope
 * `{ msgId, seq, type, ts, data }`, authentication, ack-after-commit, dedup by (device, seq) and
 * malformed-input rules as the locks' `zg/{imei}/...`. Field names follow Tuya's electric-energy
 * category (voltage-over, voltage-under, current-limit, power-limit, leak-warn-value, leak-action-value,
 * temp-over, switch, realtime-data).
 */
import { z } from 'zod';
import { text } from '../api/input.js';

/** An air switch's id: its serial number, `AS` then 6-22 digits or capital letters (never a 15-digit IMEI). */
export const airSwitchIdSchema = z.string().regex(/^AS[0-9A-Z]{6,22}$/, 'air switch id: AS and 6-22 digits or capital letters');

export const airSwitchUplinkTopic = (id: string) => `as/${id}/up`;
export const airSwitchDownlinkTopic = (id: string) => `as/${id}/down`;
/** The platform's subscription to every air switch uplink (`$share/platform/` prepended with an external broker). */
export const AIR_SWITCH_UPLINK_WILDCARD = 'as/+/up';
/** Parses `as/{id}/{direction}`; undefined for anything else. */
export function parseAirSwitchTopic(topic: string): { id: string; direction: 'up' | 'down' } | undefined {
  const match = /^as\/(AS[0-9A-Z]{6,22})\/(up|down)$/.exec(topic);
  return match ? { id: match[1] as string, direction: match[2] as 'up' | 'down' } : undefined;
}

/** Most circuits (lines) one air switch gateway carries. */
export const MAX_CIRCUITS = 16;
export const circuitNo = z.number().int().min(1).max(MAX_CIRCUITS);

/** A circuit's breaker: closed (on), opened by command or hand (off), opened by its protection (tripped). */
export const SWITCH_STATES = ['on', 'off', 'tripped'] as const;
export type SwitchState = (typeof SWITCH_STATES)[number];
/** Why a breaker opened; `manual`: someone moved the handle. */
export const TRIP_REASONS = ['overCurrent', 'shortCircuit', 'overVoltage', 'underVoltage', 'leakage', 'overTemperature', 'manual'] as const;
export type TripReason = (typeof TRIP_REASONS)[number];
/** Severity of a trip alarm by its reason. */
export const TRIP_SEVERITY: Record<TripReason, 'critical' | 'major' | 'minor' | 'warning'> = {
  shortCircuit: 'critical', leakage: 'critical', overCurrent: 'major', overTemperature: 'major',
  overVoltage: 'minor', underVoltage: 'minor', manual: 'warning',
};

const ts = z.number().int().nonnegative().max(253_402_300_799_000);
const messageBase = {
  msgId: text().min(1).max(64),
  seq: z.number().int().nonnegative().max(2 ** 31 - 1),
  ts,
};

/** One circuit's real-time data (Tuya realtime-data); readings out of these ranges make the message malformed. */
export const circuitReading = z.object({
  circuit: circuitNo,
  /** V */
  voltage: z.number().min(0).max(500),
  /** A */
  current: z.number().min(0).max(1000),
  /** Active power, W. */
  power: z.number().min(0).max(1_000_000),
  /** 0..1 */
  powerFactor: z.number().min(0).max(1),
  /** Cumulative energy counter, kWh: only grows, except when the device resets it or is replaced. */
  energyKwh: z.number().min(0).max(1_000_000_000),
  /** Leakage (residual) current, mA. */
  leakageMa: z.number().min(0).max(1000),
  /** °C */
  temperatureC: z.number().min(-40).max(200),
  state: z.enum(SWITCH_STATES),
  /** With state `tripped`. */
  tripReason: z.enum(TRIP_REASONS).optional(),
});
export type CircuitReading = z.infer<typeof circuitReading>;

export const telemetryData = z.object({ circuits: z.array(circuitReading).min(1).max(MAX_CIRCUITS) })
  .refine((data) => new Set(data.circuits.map((c) => c.circuit)).size === data.circuits.length, { message: 'circuits must be distinct' });

/** A breaker changed state: `remote` (a platform command), `local` (the handle), `protection` (a trip). */
export const switchEventData = z.object({
  circuit: circuitNo,
  state: z.enum(SWITCH_STATES),
  reason: z.enum(TRIP_REASONS).optional(),
  source: z.enum(['remote', 'local', 'protection']),
});

/** Threshold alarms the device raises against its configured thresholds, and their severity. */
export const AIR_SWITCH_ALARM_KINDS = {
  overVoltage: 'minor', underVoltage: 'minor', overCurrent: 'major', overPower: 'major', leakageWarn: 'major', overTemperature: 'major',
} as const;
export type AirSwitchAlarmKind = keyof typeof AIR_SWITCH_ALARM_KINDS;
export const airSwitchAlarmData = z.object({
  circuit: circuitNo,
  kind: z.enum(Object.keys(AIR_SWITCH_ALARM_KINDS) as [AirSwitchAlarmKind, ...AirSwitchAlarmKind[]]),
  /** True when the condition has ended (clears the active alarm). */
  cleared: z.boolean().default(false),
  /** The measured value that crossed the threshold, in the threshold's unit. */
  value: z.number().min(-1_000_000).max(1_000_000).optional(),
});

/** Per-circuit protection thresholds (Tuya voltage-over ... temp-over); each optional, absent = unchanged. */
const thresholdFields = {
  /** V */
  overVoltageV: z.number().int().min(220).max(300).optional(),
  /** V */
  underVoltageV: z.number().int().min(100).max(220).optional(),
  /** A */
  currentLimitA: z.number().int().min(1).max(630).optional(),
  /** W */
  powerLimitW: z.number().int().min(100).max(400_000).optional(),
  /** mA */
  leakageWarnMa: z.number().int().min(10).max(500).optional(),
  /** mA */
  leakageTripMa: z.number().int().min(10).max(500).optional(),
  /** °C */
  temperatureC: z.number().int().min(40).max(150).optional(),
};
const leakageOrdered = (t: { leakageWarnMa?: number; leakageTripMa?: number }) =>
  t.leakageWarnMa === undefined || t.leakageTripMa === undefined || t.leakageWarnMa <= t.leakageTripMa;
const leakageError = { message: 'leakageWarnMa must not exceed leakageTripMa', path: ['leakageWarnMa'] };
export const circuitThresholds = z.object(thresholdFields).refine(leakageOrdered, leakageError);
/** The same, refusing unknown fields (API bodies). */
export const circuitThresholdsInput = z.strictObject(thresholdFields).refine(leakageOrdered, leakageError);
export type CircuitThresholds = z.infer<typeof circuitThresholds>;

export const airSwitchConfigReportData = z.object({ circuit: circuitNo, thresholds: circuitThresholds });

/** Same shape as the locks' commandResult (code 0 success). */
export const airSwitchCommandResultData = z.object({
  commandMsgId: text().min(1).max(64),
  code: z.number().int().min(0).max(65_535),
  detail: text().max(200).optional(),
});

const uplink = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ ...messageBase, type: z.literal(type), data });
/** Every air switch uplink (device -> platform). */
export const airSwitchUplinkMessage = z.discriminatedUnion('type', [
  uplink('telemetry', telemetryData),
  uplink('switchEvent', switchEventData),
  uplink('alarm', airSwitchAlarmData),
  uplink('commandResult', airSwitchCommandResultData),
  uplink('configReport', airSwitchConfigReportData),
]);
export type AirSwitchUplinkMessage = z.infer<typeof airSwitchUplinkMessage>;

/** Downlinks (platform -> device): a circuit switched on or off, a circuit's thresholds pushed. */
export const airSwitchDownlinkData = {
  switch: z.object({ circuit: circuitNo, on: z.boolean() }),
  thresholds: z.object({ circuit: circuitNo, thresholds: circuitThresholds }),
} as const;
export type AirSwitchDownlinkType = keyof typeof airSwitchDownlinkData;
export const AIR_SWITCH_DOWNLINK_TYPES = Object.keys(airSwitchDownlinkData) as AirSwitchDownlinkType[];

/** A downlink as sent on `as/{id}/down`; msgId is the command's id. */
export interface AirSwitchDownlinkMessage {
  msgId: string;
  type: AirSwitchDownlinkType;
  ts: number;
  data: Record<string, unknown>;
}

/** An always-online air switch answers within seconds: a command unanswered this long is TIMEOUT (not resent: it switches power), ms. */
export const AIR_SWITCH_RESPONSE_TIMEOUT_MS = 15_000;
/** A command that could not be sent (device not connected) this long after it was queued is EXPIRED, ms. */
export const AIR_SWITCH_COMMAND_TTL_MS = 60_000;
