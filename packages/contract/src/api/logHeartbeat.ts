/**
 * 心跳日志 (spec §7 /iot/v1/logHeartbeat/list, batteryList, rssiList): the heartbeat rows, and one
 * lock's battery and signal over a time range as chart series. A series has at most about
 * SERIES_MAX_POINTS points: over a longer range the server averages per bucket of `bucketS` seconds.
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { exportResponse, lockRangeQuery, lockRefRecord, logQueries } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf } from './envelope.js';

/** Heartbeat-log columns the server sorts by (the time: the log holds millions of rows). */
export const HEARTBEAT_SORT_FIELDS = ['receivedAt'] as const;
export const heartbeatLogQueries = logQueries({}, HEARTBEAT_SORT_FIELDS, 'cursor');

export const heartbeatLogRecord = z.object({
  id: z.number().int(),
  ...lockRefRecord,
  seq: z.number().int(),
  /** %. */
  battery: z.number().int(),
  /** dBm. */
  rssi: z.number().int(),
  /** dB. */
  snr: z.number(),
  firmwareVersion: z.string(),
  /** ISO 8601 UTC (lock clock). */
  deviceTs: z.string(),
  /** ISO 8601 UTC (platform clock). */
  receivedAt: z.string(),
});
export type HeartbeatLogRecord = z.infer<typeof heartbeatLogRecord>;

const series = <P extends z.ZodRawShape>(point: P) => z.object({
  lockId: z.number().int(),
  imei: z.string(),
  /** Bucket width, s; 0 when the points are the raw heartbeats. */
  bucketS: z.number().int(),
  /** Oldest first; `time` is the heartbeat's (or bucket's start) receive time, ISO 8601 UTC. */
  points: z.array(z.object({ time: z.string(), ...point })),
});
/** Battery %, averaged per bucket (one decimal). */
export const batterySeries = series({ battery: z.number() });
/** RSSI dBm and SNR dB, averaged per bucket (one decimal). */
export const rssiSeries = series({ rssi: z.number(), snr: z.number() });
export type BatterySeries = z.infer<typeof batterySeries>;
export type RssiSeries = z.infer<typeof rssiSeries>;

/** One lock's battery and signal series: 心跳日志's charts, and 设备信息's (LOOK_INFO) 7-day charts. */
const SERIES_ACCESS: readonly Authority[] = ['HEARTBEAT_LOG', 'LOOK_INFO'];

export const heartbeatLogEndpoints = {
  /** Newest first; filters: time range (received), lock, keyword. */
  list: endpoint({
    method: 'GET', path: '/iot/v1/logHeartbeat/list', access: 'HEARTBEAT_LOG', kind: 'token',
    query: heartbeatLogQueries.list, response: pageOf(heartbeatLogRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/logHeartbeat/export', access: 'HEARTBEAT_LOG', kind: 'token',
    query: heartbeatLogQueries.export, response: exportResponse,
  }),
  /** One lock (lockId or imei), default range the last 24 h. */
  batteryList: endpoint({
    method: 'GET', path: '/iot/v1/logHeartbeat/batteryList', access: SERIES_ACCESS, kind: 'token',
    query: lockRangeQuery, response: batterySeries,
  }),
  rssiList: endpoint({
    method: 'GET', path: '/iot/v1/logHeartbeat/rssiList', access: SERIES_ACCESS, kind: 'token',
    query: lockRangeQuery, response: rssiSeries,
  }),
};
