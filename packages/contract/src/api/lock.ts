/** Lock endpoints (spec §7 "Locks"; issue #2 "Lock list API"). */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';

/** Query-string boolean: "true"/"false"/"1"/"0". */
const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

export const lockListQuery = pageQuery.extend({
  /** Matches IMEI, name or room (substring, case-insensitive). */
  keyword: z.string().trim().max(64).optional(),
  online: queryBoolean.optional(),
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

export const lockEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/list', access: 'LOOK_INFO', kind: 'token',
    query: lockListQuery, response: pageOf(lockRecord),
  }),
  analysis: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis', access: 'HOME_PAGE', kind: 'token', response: lockAnalysisResponse,
  }),
};
