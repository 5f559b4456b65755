/**
 * 开锁日志 (spec §7 /iot/v1/lockOpenRecord/list and /iot/v1/lockOpenRecordList): unlock attempts the
 * locks reported. `/lockOpenRecord/list` is the paged, filterable log of the tenant;
 * `/lockOpenRecordList` is the latest `limit` records of ONE lock (lockId or imei), newest first,
 * unpaged: the short list a lock's detail view shows.
 */
import { z } from 'zod';
import { ACCESS_REFUSALS } from '../access/matter.js';
import { OPEN_METHODS } from '../protocol/index.js';
import { exportResponse, lockRefFields, lockRefRecord, logQueries } from './deviceLog.js';
import { queryFlag } from './input.js';
import { endpoint } from './endpoint.js';
import { pageOf } from './envelope.js';

/** Unlock-record columns the server sorts by. */
export const OPEN_RECORD_SORT_FIELDS = ['receivedAt', 'lockTime'] as const;
export const openRecordLogQueries = logQueries({ method: z.enum(OPEN_METHODS).optional(), success: queryFlag.optional(), refusal: z.enum(ACCESS_REFUSALS).optional() }, OPEN_RECORD_SORT_FIELDS, 'cursor');

export const openRecordRecord = z.object({
  id: z.number().int(),
  ...lockRefRecord,
  uplinkId: z.number().int().nullable(),
  method: z.enum(OPEN_METHODS),
  slot: z.number().int().nullable(),
  userSlot: z.number().int().nullable(),
  success: z.boolean(),
  /** Why the lock refused (`outsideSchedule` = refused by schedule), null for a success. */
  refusal: z.enum(ACCESS_REFUSALS).nullable(),
  /** A remote unlock: the operator who asked. */
  operator: z.string().nullable(),
  /** Lock clock at the attempt, ISO 8601 UTC. */
  lockTime: z.string(),
  /** ISO 8601 UTC. */
  receivedAt: z.string(),
});
export type OpenRecordRecord = z.infer<typeof openRecordRecord>;

export const latestOpenRecordsQuery = z.object({ ...lockRefFields, limit: z.coerce.number().int().min(1).max(100).default(20) })
  .refine((value) => value.lockId !== undefined || value.imei !== undefined, { message: 'lockId or imei is required', path: ['lockId'] });

export const openRecordEndpoints = {
  /** Newest first; filters: time range (received), lock, keyword, method, success. */
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockOpenRecord/list', access: 'LOCK_OPEN_RECORD_LOG', kind: 'token',
    query: openRecordLogQueries.list, response: pageOf(openRecordRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/lockOpenRecord/export', access: 'LOCK_OPEN_RECORD_LOG', kind: 'token',
    query: openRecordLogQueries.export, response: exportResponse,
  }),
  /** The latest records of one lock (see the module comment). */
  latest: endpoint({
    method: 'GET', path: '/iot/v1/lockOpenRecordList', access: 'LOCK_OPEN_RECORD_LOG', kind: 'token',
    query: latestOpenRecordsQuery, response: z.array(openRecordRecord),
  }),
};
