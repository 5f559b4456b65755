/**
 * The ZIGUANG device protocol over MQTT (ARCHITECTURE.md "Device protocol"; docs/protocol.md).
 * Topics: `zg/{imei}/up` device -> platform, `zg/{imei}/down` platform -> device.
 * Payload: JSON `{ msgId, seq, type, ts, data }`.
 */
import { z } from 'zod';
import { text } from '../api/input.js';
import { ACCESS_REFUSALS } from '../access/matter.js';
import { inventoryData, lockUserChangeData } from './access.js';
import { lockConfig } from './downlink.js';
import { otaChunkRequestData, otaStatusData } from './ota.js';

export * from './ota.js';
export * from './access.js';
export * from './downlink.js';

/** IMEI: 15 digits (3GPP TS 23.003). */
export const imeiSchema = z.string().regex(/^\d{15}$/, 'IMEI must be 15 digits');

export const uplinkTopic = (imei: string) => `zg/${imei}/up`;
export const downlinkTopic = (imei: string) => `zg/${imei}/down`;
/** Subscription of the platform to every uplink; `$share/platform/` is prepended with an external broker. */
export const UPLINK_WILDCARD = 'zg/+/up';
/** Parses `zg/{imei}/{direction}`; undefined for anything else. */
export function parseDeviceTopic(topic: string): { imei: string; direction: 'up' | 'down' } | undefined {
  const match = /^zg\/(\d{15})\/(up|down)$/.exec(topic);
  return match ? { imei: match[1] as string, direction: match[2] as 'up' | 'down' } : undefined;
}

/** Largest accepted payload, bytes; larger ones are dropped and counted. */
export const MAX_PAYLOAD_BYTES = 4096;

const messageBase = {
  /** Unique id chosen by the sender (uplink: device; downlink: platform command id). */
  msgId: text().min(1).max(64),
  /** Per-device uplink sequence number, strictly increasing; duplicates are dropped by (device, seq). int4. */
  seq: z.number().int().nonnegative().max(2 ** 31 - 1),
  /** Device or platform clock, ms since epoch; at most year 9999 (fits timestamptz). */
  ts: z.number().int().nonnegative().max(253_402_300_799_000),
};

export const heartbeatData = z.object({
  /** %. */
  battery: z.number().int().min(0).max(100),
  /** dBm (NB-IoT: about -140 to -44). */
  rssi: z.number().int().min(-150).max(0),
  /** dB. */
  snr: z.number().min(-30).max(40),
  firmwareVersion: text().min(1).max(32),
  /** Reporting interval of the lock, s. */
  intervalS: z.number().int().min(1).max(86_400),
});
export type HeartbeatData = z.infer<typeof heartbeatData>;

export const heartbeatMessage = z.object({ ...messageBase, type: z.literal('heartbeat'), data: heartbeatData });

/** How a door was opened (ZIGUANG open-record methods). */
export const OPEN_METHODS = ['password', 'card', 'fingerprint', 'app', 'mechanicalKey', 'remote'] as const;
export type OpenMethod = (typeof OPEN_METHODS)[number];

export const openRecordData = z.object({
  method: z.enum(OPEN_METHODS),
  /** Credential slot on the lock (password/card/fingerprint slot), when the method has one. */
  slot: z.number().int().min(0).max(65_535).optional(),
  /** Lock-user slot the credential belongs to, when known. */
  userSlot: z.number().int().min(0).max(65_535).optional(),
  success: z.boolean(),
  /** Lock clock at the attempt, ms since epoch. */
  lockTime: z.number().int().nonnegative().max(253_402_300_799_000),
  /** Why a failed attempt was refused (`outsideSchedule`: refused by schedule). */
  refusal: z.enum(ACCESS_REFUSALS).optional(),
  /** A remote unlock: the operator who asked (echoed from the remoteUnlock downlink). */
  operator: text().max(64).optional(),
});
export type OpenRecordData = z.infer<typeof openRecordData>;

/** Alarm kinds and their severity (field practice: security events critical, maintenance warnings). */
export const ALARM_KINDS = {
  tamper: 'critical',
  forcedOpen: 'critical',
  duress: 'critical',
  wrongPasswordLockout: 'major',
  doorLeftOpen: 'minor',
  lowBattery: 'warning',
} as const;
export type AlarmKind = keyof typeof ALARM_KINDS;
export type AlarmSeverity = (typeof ALARM_KINDS)[AlarmKind];
export const alarmKind = z.enum(Object.keys(ALARM_KINDS) as [AlarmKind, ...AlarmKind[]]);

/**
 * Alarms the platform derives from what locks report (docs/protocol.md "Derived alarms"):
 * never sent by a lock, raised into the same alert lifecycle.
 */
export const DERIVED_ALARM_KINDS = {
  forcedEntry: 'critical',
  bruteForce: 'major',
  silentLock: 'major',
  batteryCliff: 'warning',
  /** The lock's inventory differs from what the platform believes (unmanaged or missing slots). */
  credentialDrift: 'major',
} as const;
export type DerivedAlarmKind = keyof typeof DERIVED_ALARM_KINDS;
/** Every kind an alert may have: lock alarms and derived alarms, with their severity. */
export const ALERT_KINDS = { ...ALARM_KINDS, ...DERIVED_ALARM_KINDS } as const;
export type AlertKind = keyof typeof ALERT_KINDS;
export const alertKind = z.enum(Object.keys(ALERT_KINDS) as [AlertKind, ...AlertKind[]]);

export const alarmData = z.object({
  kind: alarmKind,
  /** True when the lock reports the condition has ended (clears the active alert). */
  cleared: z.boolean().default(false),
  detail: text().max(200).optional(),
});

export const doorStateData = z.object({
  door: z.enum(['open', 'closed']),
  /** Bolt thrown. */
  locked: z.boolean(),
});

/**
 * commandResult codes ZIGUANG locks answer with (0 success); `detail` is the lock's own free text.
 * The console and exports show each code's label (labels.ts RESULT_CODE_LABELS), never the raw text alone.
 */
export const RESULT_CODES = {
  OK: 0,
  /** The message does not fit the protocol (unknown type, bad fields, missing password). */
  INVALID: 1,
  SLOT_OUT_OF_RANGE: 2,
  SLOT_OCCUPIED: 3,
  NOT_FOUND: 4,
  TABLE_FULL: 5,
  USER_NOT_FOUND: 6,
  /** The same schedule is already held (Matter DlStatus Duplicate). */
  DUPLICATE: 7,
  /** A remote unlock the lock refuses (operating mode, user type); `detail` names the ACCESS_REFUSALS reason. */
  ACCESS_REFUSED: 8,
} as const;

/** Result code 0 is success; others are lock-specific failures (detail says which). */
export const commandResultData = z.object({
  /** msgId of the downlink being answered (the platform's command id). */
  commandMsgId: text().min(1).max(64),
  code: z.number().int().min(0).max(65_535),
  detail: text().max(200).optional(),
  /** Slot the lock assigned (fingerprint enrolment, user/credential add). */
  slot: z.number().int().min(0).max(65_535).optional(),
});

export const configReportData = z.object({ config: lockConfig });

const uplink = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ ...messageBase, type: z.literal(type), data });
export const openRecordMessage = uplink('openRecord', openRecordData);
export const alarmMessage = uplink('alarm', alarmData);
export const doorStateMessage = uplink('doorState', doorStateData);
export const commandResultMessage = uplink('commandResult', commandResultData);
export const configReportMessage = uplink('configReport', configReportData);
export const otaChunkRequestMessage = uplink('otaChunkRequest', otaChunkRequestData);
export const otaStatusMessage = uplink('otaStatus', otaStatusData);
export const lockUserChangeMessage = uplink('lockUserChange', lockUserChangeData);
export const inventoryMessage = uplink('inventory', inventoryData);

/** Every uplink message (device -> platform). */
export const uplinkMessage = z.discriminatedUnion('type', [
  heartbeatMessage, openRecordMessage, alarmMessage, doorStateMessage, commandResultMessage, configReportMessage,
  otaChunkRequestMessage, otaStatusMessage, lockUserChangeMessage, inventoryMessage,
]);
export type UplinkMessage = z.infer<typeof uplinkMessage>;
export type UplinkType = UplinkMessage['type'];
export const UPLINK_TYPES = [
  'heartbeat', 'openRecord', 'alarm', 'doorState', 'commandResult', 'configReport', 'otaChunkRequest', 'otaStatus', 'lockUserChange', 'inventory',
] as const satisfies readonly UplinkType[];

export * from './airSwitch.js';
