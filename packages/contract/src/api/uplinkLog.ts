/** 上报日志 (spec §7 /iot/v1/logUpCommand/list): every event uplink as received (heartbeats have their own log). */
import { z } from 'zod';
import { UPLINK_TYPES } from '../protocol/index.js';
import { exportResponse, lockRefRecord, logQueries } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf } from './envelope.js';

/** Uplink types kept in the uplink log. */
export const EVENT_UPLINK_TYPES = UPLINK_TYPES.filter((type) => type !== 'heartbeat') as Exclude<(typeof UPLINK_TYPES)[number], 'heartbeat'>[];
const uplinkType = z.enum(EVENT_UPLINK_TYPES as [string, ...string[]]);

/** Uplink-log columns the server sorts by. */
export const UPLINK_SORT_FIELDS = ['receivedAt'] as const;
export const uplinkLogQueries = logQueries({ type: uplinkType.optional() }, UPLINK_SORT_FIELDS, 'cursor');

export const uplinkLogRecord = z.object({
  id: z.number().int(),
  ...lockRefRecord,
  seq: z.number().int(),
  msgId: z.string(),
  type: z.string(),
  /** The message's data as the lock sent it. */
  data: z.record(z.string(), z.unknown()),
  /** Lock clock, ISO 8601 UTC. */
  deviceTs: z.string(),
  /** Platform clock, ISO 8601 UTC. */
  receivedAt: z.string(),
});
export type UplinkLogRecord = z.infer<typeof uplinkLogRecord>;

export const uplinkLogEndpoints = {
  /** Newest first; filters: time range (received), lock, keyword, type. */
  list: endpoint({
    method: 'GET', path: '/iot/v1/logUpCommand/list', access: 'COMMAND_UP_LOG', kind: 'token',
    query: uplinkLogQueries.list, response: pageOf(uplinkLogRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/logUpCommand/export', access: 'COMMAND_UP_LOG', kind: 'token',
    query: uplinkLogQueries.export, response: exportResponse,
  }),
};
