/** 门锁日志 route: one lock's merged timeline (sources.ts), newest first, capped at JOURNAL_MAX_ENTRIES. */
import { JOURNAL_MAX_DAYS, JOURNAL_MAX_ENTRIES, journalEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { fieldError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { requireLock } from '../deviceLog/filter.js';
import { rangeOf } from '../logHeartbeat/series.js';
import { JOURNAL_SOURCE_FUNCTIONS } from './sources.js';

/** Registers the journal route. */
export async function lockJournalRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, journalEndpoints.journal, ({ query, inTenant }) => {
    const { start, end } = rangeOf(query);
    if (end.getTime() - start.getTime() > JOURNAL_MAX_DAYS * 86_400_000) {
      throw fieldError('query.startTime', `时间范围不能超过 ${JOURNAL_MAX_DAYS} 天`, `The range may span at most ${JOURNAL_MAX_DAYS} days`);
    }
    return inTenant(async (tx) => {
      const lock = await requireLock(tx, query);
      const range = { lockId: lock.id, start, end, limit: JOURNAL_MAX_ENTRIES + 1 };
      const entries = [];
      for (const source of JOURNAL_SOURCE_FUNCTIONS) entries.push(...(await source(tx, range)));
      entries.sort((a, b) => b.time.localeCompare(a.time));
      return {
        lock: { id: lock.id, imei: lock.imei, name: lock.name, room: lock.room },
        startTime: start.toISOString(), endTime: end.toISOString(),
        entries: entries.slice(0, JOURNAL_MAX_ENTRIES), truncated: entries.length > JOURNAL_MAX_ENTRIES,
      };
    });
  });
}
