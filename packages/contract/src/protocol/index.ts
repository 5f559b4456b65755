/**
 * The ZIGUANG device protocol over MQTT (ARCHITECTURE.md "Device protocol"; docs/protocol.md).
 * Topics: `zg/{imei}/up` device -> platform, `zg/{imei}/down` platform -> device.
 * Payload: JSON `{ msgId, seq, type, ts, data }`.
 */
import { z } from 'zod';
import { text } from '../api/input.js';
import { ACCESS_REFUSALS, CREDENTIAL_RULES, USER_TYPES } from '../access/matter.js';
import { accessDownlinkData, inventoryData, lockUserChangeData } from './access.js';
import { OTA_DOWNLINK_TYPES, type OtaDownlinkType, otaChunkRequestData, otaStatusData } from './ota.js';

export * from './ota.js';
export * from './access.js';

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

export const lockConfig = z.object({
  /** %, 0 mutes. */
  volume: z.number().int().min(0).max(100).optional(),
  /** Auto-relock delay, s; 0 disables. */
  autoLockS: z.number().int().min(0).max(3600).optional(),
  /** Heartbeat interval, s. */
  heartbeatIntervalS: z.number().int().min(10).max(86_400).optional(),
  /** Wrong attempts before a lockout alarm. */
  wrongAttemptLimit: z.number().int().min(1).max(20).optional(),
  language: z.enum(['zh-CN', 'en-US']).optional(),
});
export type LockConfig = z.infer<typeof lockConfig>;

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

/* ---------------------------------------------------------------- downlinks (platform -> device) */

/** Validity window of a credential, ms since epoch (end exclusive). */
const validity = { validFrom: z.number().int().nonnegative().optional(), validTo: z.number().int().nonnegative().optional() };
/** Digits of a password: 6-9 unless the lock model says otherwise. Never logged in clear. */
const passwordDigits = z.string().regex(/^\d{4,12}$/);

export const downlinkData = {
  /** Registers the lock with the vendor route (spec /iot/v1/zg/registerDevice). */
  registerDevice: z.object({ vendor: text().max(32) }),
  /** Unregisters it (spec /iot/v1/zg/deleteDevice). */
  deleteDevice: z.object({}),
  /** Lock users (spec /iot/v1/zg/userOperation). */
  userOperation: z.object({
    action: z.enum(['add', 'modify', 'freeze', 'unfreeze', 'delete']),
    userSlot: z.number().int().min(0).max(65_535),
    name: text().max(64).optional(),
    ...validity,
    /** Matter UserType; add without it: unrestrictedUser; modify without it: unchanged. */
    userType: z.enum(USER_TYPES).optional(),
    /** Matter CredentialRule: `dual` needs a second person's credential within DUAL_CREDENTIAL_WINDOW_MS. */
    credentialRule: z.enum(CREDENTIAL_RULES).optional(),
    /** expiringUser: minutes of access after the first use (Matter ExpiringUserTimeout, here per user). */
    expiringMinutes: z.number().int().min(1).max(2880).optional(),
  }),
  /** Permanent passwords (spec /iot/v1/zg/foreverPassword). */
  foreverPassword: z.object({
    action: z.enum(['add', 'delete']),
    slot: z.number().int().min(0).max(65_535),
    userSlot: z.number().int().min(0).max(65_535).optional(),
    password: passwordDigits.optional(),
  }),
  /** Temporary passwords (spec /iot/v1/zg/tempPassword). */
  tempPassword: z.object({
    action: z.enum(['add', 'delete']),
    slot: z.number().int().min(0).max(65_535),
    userSlot: z.number().int().min(0).max(65_535).optional(),
    password: passwordDigits.optional(),
    oneTime: z.boolean().default(false),
    ...validity,
  }),
  /** IC cards (spec /iot/v1/zg/cardOperate); `reversed`: card number sent in reversed byte order. */
  cardOperate: z.object({
    action: z.enum(['add', 'delete']),
    slot: z.number().int().min(0).max(65_535).optional(),
    userSlot: z.number().int().min(0).max(65_535).optional(),
    /** Required to add; a delete names the slot or the number. */
    cardNumber: z.string().regex(/^[0-9A-Fa-f]{8,20}$/).optional(),
    reversed: z.boolean().default(false),
  }).refine((d) => d.action === 'delete' ? d.cardNumber !== undefined || d.slot !== undefined : d.cardNumber !== undefined, { message: 'cardNumber (or, to delete, slot) is required' }),
  /** Remote fingerprint enrolment (spec /iot/v1/zg/addFingerPrint): the lock answers with the slot. */
  addFingerPrint: z.object({ userSlot: z.number().int().min(0).max(65_535), action: z.enum(['add', 'delete']).default('add'), slot: z.number().int().optional() }),
  /** Configuration push. */
  configPush: z.object({ config: lockConfig }),
  /** Clock synchronisation: platform time, ms since epoch. */
  clockSync: z.object({ time: z.number().int().nonnegative() }),
  ...accessDownlinkData,
} as const;
export type DownlinkType = keyof typeof downlinkData;
export const DOWNLINK_TYPES = Object.keys(downlinkData) as DownlinkType[];
/** Fields of a downlink's data that are secret: stored encrypted, shown masked, never logged. */
export const SECRET_DOWNLINK_FIELDS = ['password'] as const;

/** A downlink message as sent on `zg/{imei}/down`; msgId is the command's id (OTA transfer: `ota-…`). */
export const downlinkMessage = z.object({
  msgId: text().min(1).max(64),
  type: z.enum([...DOWNLINK_TYPES, ...OTA_DOWNLINK_TYPES] as [DownlinkType | OtaDownlinkType, ...(DownlinkType | OtaDownlinkType)[]]),
  ts: z.number().int().nonnegative(),
  data: z.record(z.string(), z.unknown()),
});
export type DownlinkMessage = z.infer<typeof downlinkMessage>;

/** An NB-IoT lock in power-saving mode is reachable for this long after each of its uplinks, ms. */
export const WAKE_WINDOW_MS = 10_000;

/** Downlink command states (ThingsBoard persistent RPC / Huawei cached commands). */
export const COMMAND_STATES = ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL', 'FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
/** States after which a command never changes again. */
export const FINAL_COMMAND_STATES = ['SUCCESSFUL', 'FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED'] as const satisfies readonly CommandState[];
/** Default time-to-live of a queued command, ms (48 h). */
export const COMMAND_TTL_MS = 48 * 3600 * 1000;
/** At most this many queued commands per device; the next is refused. */
export const MAX_QUEUED_PER_DEVICE = 20;

export * from './airSwitch.js';
