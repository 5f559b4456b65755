/** Lock endpoints (spec §7 "Locks"; issue #2 "Lock list API"). */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { keyword } from './input.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';

/** Query-string boolean: "true"/"false"/"1"/"0". */
const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

export const lockListQuery = pageQuery.extend({
  /** Matches IMEI, name or room (substring, case-insensitive). */
  keyword: keyword().optional(),
  online: queryBoolean.optional(),
  /** Only locks at or below LOW_BATTERY_PERCENT (the home page's low-battery KPI links here). */
  lowBattery: queryBoolean.optional(),
});

export const lockRecord = z.object({
  id: z.number().int(),
  imei: z.string(),
  name: z.string(),
  /** Building / floor / room, e.g. "A栋/3层/301". */
  room: z.string(),
  model: z.string(),
  vendor: z.string(),
  firmwareVersion: z.string(),
  /** %, null before the first heartbeat. */
  battery: z.number().int().nullable(),
  /** dBm. */
  rssi: z.number().int().nullable(),
  /** dB. */
  snr: z.number().nullable(),
  heartbeatIntervalS: z.number().int(),
  online: z.boolean(),
  /** ISO 8601, null before the first heartbeat. */
  lastHeartbeatAt: z.string().nullable(),
});
export type LockRecord = z.infer<typeof lockRecord>;

export const lockAnalysisResponse = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  lowBattery: z.number().int(),
});
export type LockAnalysis = z.infer<typeof lockAnalysisResponse>;

/**
 * The pages that pick a lock (lock picker, lookups): each one's own authority opens the picker's list,
 * so a role given only 心跳日志 can still choose a lock there (issue #17).
 */
export const LOCK_PICKER_ACCESS: readonly Authority[] = [
  'LOOK_INFO', 'LOOK_CONFIG', 'HEARTBEAT_LOG', 'COMMAND_UP_LOG', 'COMMAND_DOWN_LOG', 'LOCK_ALERT_LOG', 'LOCK_OPEN_RECORD_LOG',
  'VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE',
  'OPERATE_USER_LOG', 'OPERATE_PASSWORD_LOG', 'OPERATE_CARD_LOG', 'OPERATE_FP_LOG',
];

/** Lock picker query: keyword over IMEI, name or room; at most `size` (default 20, max 50) locks. */
export const lockOptionsQuery = z.object({
  keyword: keyword().optional(),
  size: z.coerce.number().int().min(1).max(50).default(20),
});

/** A lock as a picker shows it. */
export const lockOption = z.object({ id: z.number().int(), imei: z.string(), name: z.string(), room: z.string() });
export type LockOption = z.infer<typeof lockOption>;

export const lockEndpoints = {
  /** The lock picker's list (spec §7 lockRoomList): id, IMEI, name and room only, for every page that picks a lock. */
  lockRoomList: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/lockRoomList', access: LOCK_PICKER_ACCESS, kind: 'token',
    query: lockOptionsQuery, response: z.array(lockOption),
  }),
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/list', access: 'LOOK_INFO', kind: 'token',
    query: lockListQuery, response: pageOf(lockRecord),
  }),
  analysis: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis', access: 'HOME_PAGE', kind: 'token', response: lockAnalysisResponse,
  }),
};
