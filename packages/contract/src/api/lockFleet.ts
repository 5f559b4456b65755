/**
 * Fleet views of the locks: live states and attention kinds (门锁信息's filters), the
 * fleet at a glance (门锁概况 lockSurvey), the building -> floor tree (产品 RoomInquiry) and the
 * lock-room list (the room level of that tree, and the lock picker of every page that picks a lock).
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { ATTENTION_THRESHOLDS } from '../constants.js';
import { endpoint } from './endpoint.js';
import { keyword } from './input.js';

/**
 * Live state: `online` (heartbeat within ONLINE_HEARTBEAT_FACTOR intervals and reachable now: always
 * online, or an uplink within the wake window), `asleep` (heartbeat recent, an NB-IoT lock sleeping
 * until its next heartbeat), `offline` (no heartbeat within ONLINE_HEARTBEAT_FACTOR intervals).
 */
export const LIVE_STATES = ['online', 'asleep', 'offline'] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/**
 * Why a lock needs attention (thresholds: constants ATTENTION_THRESHOLDS, LOW_BATTERY_PERCENT):
 * lowBattery (battery <= LOW_BATTERY_PERCENT %), weakSignal (RSSI < weakRssiDbm), offlineLong (no
 * heartbeat for offlineIntervals intervals), configDrift (the last configuration pushed, not canceled,
 * is not what the lock reports), credentialDrift (a lock user or credential not in sync with the lock),
 * failedCommands (a command FAILED / TIMEOUT / EXPIRED within failedCommandsHours). Each is a boolean
 * filter of the lock list of the same name.
 */
export const ATTENTION_KINDS = ['lowBattery', 'weakSignal', 'offlineLong', 'configDrift', 'credentialDrift', 'failedCommands'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** RSSI buckets of the survey: edges in dBm, each bucket [from, to); the weak-signal threshold is one edge. */
export const RSSI_BUCKET_EDGES_DBM = [-115, ATTENTION_THRESHOLDS.weakRssiDbm, -95, -85] as const;
/** Battery buckets of the survey: [0, 10), [10, 20), ... [90, 100], %. */
export const BATTERY_BUCKET_PERCENT = 10;

const int = z.number().int();
const count = z.object({ key: z.string(), count: int });
const bucket = z.object({ from: int.nullable(), to: int.nullable(), count: int });

/**
 * 门锁概况: the data centre's registered locks (decommissioned left out) counted by live state, type,
 * firmware version, building and group (the 50 largest of each), battery and RSSI distributions
 * (locks without a reading counted apart) and the locks needing attention per kind.
 */
export const lockSurvey = z.object({
  total: int,
  liveStates: z.object({ online: int, asleep: int, offline: int }),
  /** Registered but disabled (refused at connect). */
  disabled: int,
  types: z.array(count),
  firmware: z.array(count),
  /** `key` '' = not placed. */
  buildings: z.array(count),
  groups: z.array(z.object({ id: int, name: z.string(), count: int })),
  battery: z.array(bucket),
  batteryUnknown: int,
  rssi: z.array(bucket),
  rssiUnknown: int,
  attention: z.object(Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, int])) as Record<AttentionKind, typeof int>),
});
export type LockSurvey = z.infer<typeof lockSurvey>;

/** One node of the location tree: a building (no `building` asked) or a floor of it; counts of its locks (as lockRoomList lists them). */
export const locationNode = z.object({
  /** '' = not placed. */
  name: z.string(),
  locks: int,
  online: int,
  asleep: int,
  offline: int,
  /** Locks with at least one active alarm. */
  alarmed: int,
});
export type LocationNode = z.infer<typeof locationNode>;

export const locationTreeQuery = z.object({
  /** Given: the floors of this building; absent: the buildings. */
  building: keyword(32).optional(),
});

/**
 * The pages that pick a lock (lock picker, lookups): each one's own authority opens the picker's list,
 * so a role given only 心跳日志 can still choose a lock there.
 */
export const LOCK_PICKER_ACCESS: readonly Authority[] = [
  'LOOK_INFO', 'LOOK_CONFIG', 'HEARTBEAT_LOG', 'COMMAND_UP_LOG', 'COMMAND_DOWN_LOG', 'LOCK_ALERT_LOG', 'LOCK_OPEN_RECORD_LOG',
  'VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE', 'VOUCHER_SCHEDULE_MANAGE',
  'OPERATE_USER_LOG', 'OPERATE_PASSWORD_LOG', 'OPERATE_CARD_LOG', 'OPERATE_FP_LOG', 'RENEW',
];

/**
 * Lock-room list query: keyword over IMEI, name or room; building / floor / room exact (the room level of
 * the tree); at most `size` (default 20, max 200) locks (decommissioned ones too, their history is kept),
 * ordered by id.
 */
export const lockOptionsQuery = z.object({
  keyword: keyword().optional(),
  building: keyword(32).optional(),
  floor: keyword(32).optional(),
  room: keyword(32).optional(),
  size: z.coerce.number().int().min(1).max(200).default(20),
});

/** A lock with its room and live state, as a picker and the room tree show it. */
export const lockOption = z.object({
  id: int,
  imei: z.string(),
  name: z.string(),
  /** "Building/floor/room". */
  room: z.string(),
  location: z.object({ building: z.string(), floor: z.string(), room: z.string() }),
  liveState: z.enum(LIVE_STATES),
  /** ISO 8601: next expected heartbeat; null before any uplink. */
  nextWakeAt: z.string().nullable(),
  /** %, null before the first heartbeat. */
  battery: int.nullable(),
  /** open | closed, null before the first report. */
  doorState: z.string().nullable(),
  /** Active alarms. */
  openAlarms: int,
  /** Registry state (lock.ts LOCK_STATES). */
  state: z.enum(['active', 'disabled', 'decommissioned']),
});
export type LockOption = z.infer<typeof lockOption>;

export const lockFleetEndpoints = {
  /** The lock picker's list and the room level of 产品's tree (spec §7 lockRoomList). */
  lockRoomList: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/lockRoomList', access: LOCK_PICKER_ACCESS, kind: 'token',
    query: lockOptionsQuery, response: z.array(lockOption),
  }),
  survey: endpoint({ method: 'GET', path: '/iot/v1/lockDevice/survey', access: 'LOOK_INFO', kind: 'token', response: lockSurvey }),
  locationTree: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/locationTree', access: 'LOOK_INFO', kind: 'token', query: locationTreeQuery, response: z.array(locationNode),
  }),
};
