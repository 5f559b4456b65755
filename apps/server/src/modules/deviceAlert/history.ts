/**
 * Past alerts for the demo's lived-in history (demo/history/):
 * rows whose lifecycle already ran (raised, repeated, cleared, acknowledged), with their own times.
 */
import { protocol } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { alerts } from '../../db/schema.js';

/** One past alert; times ms since epoch; clearedAt undefined: still active. */
export interface PastAlert {
  tenantId: number;
  lockId: number;
  kind: protocol.AlarmKind;
  detail: string | null;
  occurrences: number;
  firstAt: number;
  lastAt: number;
  clearedAt?: number;
  acknowledgedBy?: string;
  acknowledgedAt?: number;
}

const date = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));

/**
 * Inserts `rows` (owner connection), severity from protocol.ALARM_KINDS. At most one active alert per
 * (lock, kind) is allowed (alerts_one_active): the caller passes at most one row without clearedAt each.
 */
export async function insertAlertHistory(db: Executor, rows: readonly PastAlert[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) {
    await db.insert(alerts).values(rows.slice(start, start + 1000).map((row) => ({
      tenantId: row.tenantId, deviceKind: 'lock', lockId: row.lockId, kind: row.kind, severity: protocol.ALARM_KINDS[row.kind], detail: row.detail,
      state: row.clearedAt === undefined ? 'active' : 'cleared', occurrences: row.occurrences, firstAt: new Date(row.firstAt),
      lastAt: new Date(row.lastAt), clearedAt: date(row.clearedAt), acknowledgedBy: row.acknowledgedBy ?? null, acknowledgedAt: date(row.acknowledgedAt),
    })));
  }
}
