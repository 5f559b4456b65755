/**
 * Downlinks of the ZIGUANG device protocol (platform -> device, `zg/{imei}/down`): each command type's
 * data, the message envelope, the lock configuration a `configPush` sends (and a `configReport` reads
 * back, index.ts), and the command lifecycle's states and limits (ThingsBoard persistent RPC).
 */
import { z } from 'zod';
import { text } from '../api/input.js';
import { CREDENTIAL_RULES, USER_TYPES } from '../access/matter.js';
import { accessDownlinkData } from './access.js';
import { OTA_DOWNLINK_TYPES, type OtaDownlinkType } from './ota.js';

/** A lock's configuration: pushed by `configPush`, reported back by `configReport`. */
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
