/**
 * The in-console inbox (contract api/notificationInbox.ts): a notification lands in the
 * inbox of its recipients (recipientsOf) and `notification.inbox` is raised, addressed to them, so
 * their live streams refresh the bell; each account lists and marks read its own items only. Every
 * function runs in the data centre's transaction (row-level security) and scopes to the account too.
 */
import { EVENT_ID_LIST_MAX, type NotificationInboxReadBody, type NotificationInboxRecord, type NotificationSubjectKind } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { emitAll } from '../../events/emit.js';
import { objectCodeSql, objectNameSql } from './subjects.js';

type Row = Record<string, unknown>;

/** The authority key whose holders see a notification about this kind of object (报警日志 / 空开管理 / 固件管理 / 订单管理 / 订阅管理 / 用户管理, which manages stays). */
const KEY_OF = { lock: 'LOCK_ALERT_LOG', airSwitch: 'AIRSWITCH_RULE', rollout: 'FIRMWARE_RULE', order: 'ORDER_MANAGEMENT', customer: 'SUBSCRIPTIONMANAGEMENT', stay: 'VOUCHER_USER_MANAGE' } as const satisfies Record<NotificationSubjectKind, string>;

/**
 * Recipients of a notification about a `deviceKind` device in data centre `tenantId`: its enabled
 * administrators (type 0: every key) and enabled members whose roles there grant KEY_OF[deviceKind].
 */
export async function recipientsOf(tx: Tx, tenantId: number, deviceKind: NotificationSubjectKind): Promise<number[]> {
  const rows = rowsOf<Row>(await tx.execute(sql`
    select a.id from accounts a where a.enabled and (a.type = 0 or (
      exists (select 1 from account_tenants m where m.account_id = a.id and m.tenant_id = ${tenantId})
      and exists (select 1 from account_roles ar join roles r on r.id = ar.role_id
        where ar.account_id = a.id and ar.tenant_id = ${tenantId} and ${KEY_OF[deviceKind]} = any(r.authorities))))
    order by a.id`));
  return rows.map((row) => Number(row.id));
}

/** Emits `notification.inbox` for `accountIds` (split at EVENT_ID_LIST_MAX). */
async function announce(tx: Tx, tenantId: number, accountIds: number[], change: 'added' | 'read', notificationId?: number): Promise<void> {
  const events = [];
  for (let start = 0; start < accountIds.length; start += EVENT_ID_LIST_MAX) {
    const part = accountIds.slice(start, start + EVENT_ID_LIST_MAX);
    events.push({ name: 'notification.inbox' as const, payload: { tenantId, accountIds: part, change, ...(notificationId ? { notificationId } : {}) } });
  }
  await emitAll(tx, events);
}

/**
 * Puts each of `notificationIds` in the inboxes of `accountIds` and announces them (one event per
 * EVENT_ID_LIST_MAX accounts, naming the notification when there is one); returns how many items landed.
 */
export async function deliverToInbox(tx: Tx, tenantId: number, notificationIds: readonly number[], accountIds: number[]): Promise<number> {
  if (accountIds.length === 0 || notificationIds.length === 0) return 0;
  await tx.execute(sql`
    insert into notification_inbox (tenant_id, account_id, notification_id)
    select ${tenantId}, account_id, notification_id
    from unnest(${sql.param(accountIds)}::int[]) as account_id cross join unnest(${sql.param([...notificationIds])}::bigint[]) as notification_id
    order by notification_id, account_id`);
  await announce(tx, tenantId, accountIds, 'added', notificationIds.length === 1 ? notificationIds[0] : undefined);
  return accountIds.length * notificationIds.length;
}

async function unreadOf(tx: Tx, accountId: number): Promise<number> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select count(*) as n from notification_inbox where account_id = ${accountId} and read_at is null`));
  return Number(row?.n ?? 0);
}

/** One page of `accountId`'s inbox, newest first, with its unread count. */
export async function listInbox(tx: Tx, accountId: number, query: { current: number; size: number; unread?: boolean }):
  Promise<{ records: NotificationInboxRecord[]; total: number; current: number; size: number; unread: number }> {
  const where = sql`i.account_id = ${accountId} and (${query.unread ?? false}::boolean is false or i.read_at is null)`;
  const [count] = rowsOf<Row>(await tx.execute(sql`select count(*) as total from notification_inbox i where ${where}`));
  const rows = rowsOf<Row>(await tx.execute(sql`
    select i.id, i.notification_id, i.created_at, i.read_at, n.kind, n.severity, n.device_kind, n.device_id, n.alert_id, n.count,
      ${objectNameSql} as device_name, ${objectCodeSql} as device_code,
      (select a.acknowledged_at from alerts a where a.id = n.alert_id) as acknowledged_at
    from notification_inbox i join notifications n on n.id = i.notification_id
    where ${where} order by i.id desc limit ${query.size} offset ${(query.current - 1) * query.size}`));
  return {
    total: Number(count?.total ?? 0), current: query.current, size: query.size, unread: await unreadOf(tx, accountId),
    records: rows.map((row) => ({
      id: Number(row.id), notificationId: Number(row.notification_id), kind: String(row.kind), severity: row.severity as NotificationInboxRecord['severity'],
      deviceKind: row.device_kind as NotificationInboxRecord['deviceKind'], deviceId: Number(row.device_id),
      deviceName: (row.device_name as string | null) ?? null, deviceCode: (row.device_code as string | null) ?? null,
      alertId: row.alert_id == null ? null : Number(row.alert_id), acknowledgedAt: row.acknowledged_at == null ? null : iso(row.acknowledged_at as string),
      count: Number(row.count), createdAt: iso(row.created_at as string), readAt: row.read_at == null ? null : iso(row.read_at as string),
    })),
  };
}

/** Marks `accountId`'s items read (the ids given, others' ids are ignored; or all); announces it when any changed. */
export async function markInboxRead(tx: Tx, tenantId: number, accountId: number, body: NotificationInboxReadBody): Promise<{ read: number; unread: number }> {
  const ids = 'ids' in body ? body.ids : null;
  const changed = rowsOf(await tx.execute(sql`
    update notification_inbox set read_at = now()
    where account_id = ${accountId} and read_at is null and (${ids === null} or id = any(${sql.param(ids ?? [])}::bigint[])) returning id`));
  if (changed.length > 0) await announce(tx, tenantId, [accountId], 'read');
  return { read: changed.length, unread: await unreadOf(tx, accountId) };
}
