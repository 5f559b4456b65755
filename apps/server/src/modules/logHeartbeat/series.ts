/**
 * Battery and signal series of one lock (心跳日志 charts). Raw heartbeats when the range holds at most
 * SERIES_MAX_POINTS of them; otherwise averages per bucket of ceil(range / SERIES_MAX_POINTS) seconds
 * (date_bin), so a chart never gets more than about SERIES_MAX_POINTS points. Uses heartbeats_lock_time.
 */
import { type LockRangeQuery, SERIES_MAX_POINTS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { requireLock } from '../deviceLog/filter.js';

/** Default range of a series or journal: the last 24 h, ms. */
export const DEFAULT_RANGE_MS = 24 * 3600 * 1000;

/** The range of a query, defaulting to the DEFAULT_RANGE_MS before `endTime` (or now). */
export function rangeOf(query: Pick<LockRangeQuery, 'startTime' | 'endTime'>, defaultMs = DEFAULT_RANGE_MS): { start: Date; end: Date } {
  const end = query.endTime ? new Date(query.endTime) : new Date();
  const start = query.startTime ? new Date(query.startTime) : new Date(end.getTime() - defaultMs);
  return { start, end };
}

interface SeriesRow { time: Date | string; battery: number | string; rssi: number | string; snr: number | string }

/** Points of one lock's heartbeats in the query's range: time (ISO 8601), battery %, rssi dBm, snr dB. */
export async function heartbeatSeries(tx: Tx, query: LockRangeQuery) {
  const lock = await requireLock(tx, query);
  const { start, end } = rangeOf(query);
  const inRange = sql`lock_id = ${lock.id} and received_at >= ${start.toISOString()}::timestamptz and received_at <= ${end.toISOString()}::timestamptz`;
  // Raw points when they fit (one query; a 24 h chart of a 30 s lock is 2,880 rows, so not always).
  const raw = (await tx.execute(sql`select received_at as time, battery, rssi, snr from heartbeats where ${inRange}
    order by received_at, id limit ${SERIES_MAX_POINTS + 1}`)) as unknown as { rows: SeriesRow[] };
  const bucketS = raw.rows.length > SERIES_MAX_POINTS ? Math.ceil((end.getTime() - start.getTime()) / 1000 / SERIES_MAX_POINTS) : 0;
  const result = bucketS === 0
    ? raw
    : await tx.execute(sql`
        select date_bin(make_interval(secs => ${bucketS}), received_at, ${start.toISOString()}::timestamptz) as time,
          round(avg(battery), 1) as battery, round(avg(rssi), 1) as rssi, round(avg(snr)::numeric, 1) as snr
        from heartbeats where ${inRange} group by 1 order by 1`);
  const points = (result as unknown as { rows: SeriesRow[] }).rows.map((row) => ({
    time: new Date(row.time).toISOString(), battery: Number(row.battery), rssi: Number(row.rssi), snr: Math.round(Number(row.snr) * 10) / 10,
  }));
  return { lockId: lock.id, imei: lock.imei, bucketS, points };
}
