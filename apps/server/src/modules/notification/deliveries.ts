/** The delivery log of notifications, newest first, in the caller's tenant transaction. */
import type { NotificationDeliveryRecord, NotificationDeliveryState } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { objectNameSql } from './subjects.js';

type Row = Record<string, unknown>;
const time = (value: unknown) => (value == null ? null : iso(value as string));

interface Filter { state?: NotificationDeliveryState; channelId?: number; ruleId?: number; startTime?: string; endTime?: string; current: number; size: number }

/** One page of the log, filtered by state, channel, rule and creation time (ISO 8601, both ends included). */
export async function listNotificationDeliveries(tx: Tx, filter: Filter):
  Promise<{ records: NotificationDeliveryRecord[]; total: number; current: number; size: number }> {
  const where = sql`(${filter.state ?? null}::text is null or d.state = ${filter.state ?? null})
    and (${filter.channelId ?? null}::bigint is null or d.channel_id = ${filter.channelId ?? null})
    and (${filter.ruleId ?? null}::bigint is null or n.rule_id = ${filter.ruleId ?? null})
    and (${filter.startTime ?? null}::timestamptz is null or d.created_at >= ${filter.startTime ?? null}::timestamptz)
    and (${filter.endTime ?? null}::timestamptz is null or d.created_at <= ${filter.endTime ?? null}::timestamptz)`;
  const [count] = rowsOf<Row>(await tx.execute(sql`select count(*) as total from notification_deliveries d join notifications n on n.id = d.notification_id where ${where}`));
  const rows = rowsOf<Row>(await tx.execute(sql`
    select d.id, d.notification_id, n.rule_id, d.channel_id, c.name as channel_name, n.kind, n.severity, n.device_kind, n.device_id, n.count,
      ${objectNameSql} as device_name,
      d.account_id, (select a.username from accounts a where a.id = d.account_id) as account_name, d.state, d.attempts, d.last_error, d.escalation, d.created_at, d.sent_at, d.next_attempt_at
    from notification_deliveries d join notifications n on n.id = d.notification_id left join notification_channels c on c.id = d.channel_id
    where ${where} order by d.id desc limit ${filter.size} offset ${(filter.current - 1) * filter.size}`));
  return {
    total: Number(count?.total ?? 0), current: filter.current, size: filter.size,
    records: rows.map((row) => ({
      id: Number(row.id), notificationId: Number(row.notification_id), ruleId: row.rule_id == null ? null : Number(row.rule_id),
      channelId: row.channel_id == null ? null : Number(row.channel_id), channelName: (row.channel_name as string | null) ?? null,
      kind: String(row.kind), severity: String(row.severity), deviceKind: row.device_kind as NotificationDeliveryRecord['deviceKind'], deviceId: Number(row.device_id),
      deviceName: (row.device_name as string | null) ?? null,
      accountId: row.account_id == null ? null : Number(row.account_id), accountName: (row.account_name as string | null) ?? null, state: row.state as NotificationDeliveryState, attempts: Number(row.attempts),
      lastError: (row.last_error as string | null) ?? null, escalation: Boolean(row.escalation), count: Number(row.count), createdAt: iso(row.created_at as string), sentAt: time(row.sent_at),
      nextAttemptAt: row.state === 'pending' ? time(row.next_attempt_at) : null,
    })),
  };
}
