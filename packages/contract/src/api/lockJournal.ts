/**
 * 门锁日志: one lock's merged timeline over a time range (default the last 24 h, at most
 * JOURNAL_MAX_DAYS), newest first, at most JOURNAL_MAX_ENTRIES entries (`truncated` says when cut).
 * Each entry names its `source`; the server merges one function per source (modules/lockJournal/
 * sources.ts), so another log (e.g. the command outbox, source `command`) plugs in with one line.
 */
import { z } from 'zod';
import { lockRangeQuery } from './deviceLog.js';
import { endpoint } from './endpoint.js';

export const JOURNAL_MAX_ENTRIES = 500;
export const JOURNAL_MAX_DAYS = 31;
/**
 * Sources of today's entries and their `type`s:
 * - `heartbeats`: `summary`, data { count, batteryMin, batteryMax, rssiAvg, snrAvg, bucketS } per bucket;
 * - `uplink`: the uplink type (doorState, configReport, commandResult), data as sent;
 * - `openRecord`: the method, data { success, slot, userSlot, lockTime } (entry time: when received);
 * - `alert`: `raised` | `cleared` | `acknowledged`, data { kind, severity, occurrences, by? }.
 */
export const JOURNAL_SOURCES = ['heartbeats', 'uplink', 'openRecord', 'alert'] as const;

export const journalEntry = z.object({
  /** ISO 8601 UTC. */
  time: z.string(),
  /** One of JOURNAL_SOURCES, or a source added later. */
  source: z.string(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type JournalEntry = z.infer<typeof journalEntry>;

export const journalResponse = z.object({
  lock: z.object({ id: z.number().int(), imei: z.string(), name: z.string(), room: z.string() }),
  /** The range actually used, ISO 8601 UTC. */
  startTime: z.string(),
  endTime: z.string(),
  entries: z.array(journalEntry),
  truncated: z.boolean(),
});
export type JournalResponse = z.infer<typeof journalResponse>;

export const journalEndpoints = {
  journal: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/journal', access: 'LOOK_INFO', kind: 'token', query: lockRangeQuery, response: journalResponse,
  }),
};
