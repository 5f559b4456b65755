/**
 * The delivery log of 订阅管理: list with filters (time range on created_at, customer
 * code, event type, state, lock, event id), export rows, replay and the test event. Tenant
 * transaction; the worker (worker.ts) owns the attempts.
 */
import { randomUUID } from 'node:crypto';
import { type DeliveryRecord, type DeliveryState, type Page, SUBSCRIPTION_LABELS, localized as h } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { emit } from '../../events/emit.js';
import { rowCount, rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import type { ExportColumn } from '../../http/export.js';

export interface DeliveryFilter {
  customerCode?: string; eventType?: string; state?: DeliveryState; eventId?: string;
  lockId?: number; imei?: string; startTime?: string; endTime?: string; keyword?: string;
}

function where(filter: DeliveryFilter): SQL {
  const pattern = filter.keyword ? `%${filter.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const parts = [
    filter.customerCode ? sql`cc.code = ${filter.customerCode}` : undefined,
    filter.eventType ? sql`d.event_type = ${filter.eventType}` : undefined,
    filter.state ? sql`d.state = ${filter.state}` : undefined,
    filter.eventId ? sql`d.event_id = ${filter.eventId}::uuid` : undefined,
    filter.lockId ? sql`d.lock_id = ${filter.lockId}` : undefined,
    filter.imei ? sql`l.imei = ${filter.imei}` : undefined,
    filter.startTime ? sql`d.created_at >= ${filter.startTime}::timestamptz` : undefined,
    filter.endTime ? sql`d.created_at <= ${filter.endTime}::timestamptz` : undefined,
    pattern ? sql`(l.imei ilike ${pattern} or l.name ilike ${pattern} or l.room ilike ${pattern})` : undefined,
  ].filter((part): part is SQL => part !== undefined);
  return parts.length ? sql.join([sql`where`, sql.join(parts, sql` and `)], sql` `) : sql``;
}

const FROM = sql`from push_deliveries d join customer_codes cc on cc.id = d.customer_code_id left join locks l on l.id = d.lock_id`;

function toRecord(row: Record<string, unknown>): DeliveryRecord {
  const t = (value: unknown) => (value == null ? null : iso(value as string));
  return {
    id: Number(row.id), customerCode: String(row.code), eventId: String(row.event_id), eventType: String(row.event_type),
    lockId: row.lock_id == null ? null : Number(row.lock_id), imei: (row.imei as string | null) ?? null, lockName: (row.lock_name as string | null) ?? null,
    state: row.state as DeliveryState, attempts: Number(row.attempts), lastStatus: row.last_status == null ? null : Number(row.last_status),
    lastLatencyMs: row.last_latency_ms == null ? null : Number(row.last_latency_ms), lastError: (row.last_error as string | null) ?? null,
    occurredAt: iso(row.occurred_at as string), createdAt: iso(row.created_at as string), lastAttemptAt: t(row.last_attempt_at),
    nextAttemptAt: row.state === 'pending' ? t(row.next_attempt_at) : null, deliveredAt: t(row.delivered_at),
    replayOf: row.replay_of == null ? null : Number(row.replay_of), data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  };
}

async function select(tx: Tx, filter: DeliveryFilter, limit: number, offset: number): Promise<DeliveryRecord[]> {
  const rows = rowsOf<Record<string, unknown>>(await tx.execute(sql`
    select d.*, cc.code, l.imei, l.name as lock_name ${FROM} ${where(filter)} order by d.id desc limit ${limit} offset ${offset}`));
  return rows.map(toRecord);
}

/** A page of the tenant's deliveries, newest first. */
export async function listDeliveries(tx: Tx, filter: DeliveryFilter, current: number, size: number): Promise<Page<DeliveryRecord>> {
  const [counted] = rowsOf<{ n: string | number }>(await tx.execute(sql`select count(*) as n ${FROM} ${where(filter)}`));
  return { records: await select(tx, filter, size, (current - 1) * size), total: Number(counted?.n ?? 0), current, size };
}

/** At most `limit` deliveries in list order (exports). */
export function deliveryRows(tx: Tx, filter: DeliveryFilter, limit: number): Promise<DeliveryRecord[]> {
  return select(tx, filter, limit, 0);
}

/** Queues a new delivery of each of the tenant's deliveries `ids` (same event id and payload); returns how many. */
export async function replayDeliveries(tx: Tx, ids: readonly number[]): Promise<number> {
  const queued = rowCount(await tx.execute(sql`
    insert into push_deliveries (tenant_id, customer_code_id, event_id, event_type, lock_id, occurred_at, data, replay_of)
    select tenant_id, customer_code_id, event_id, event_type, lock_id, occurred_at, data, id
    from push_deliveries where id = any(${sql.param([...ids])}::bigint[]) order by id`));
  if (queued > 0) await emit(tx, 'push.queued', { tenantId: null, count: queued });
  return queued;
}

/** Queues a `test` event to customer code `id`; returns its event id. */
export async function queueTestEvent(tx: Tx, tenantId: number, id: number): Promise<string> {
  const eventId = randomUUID();
  await tx.execute(sql`
    insert into push_deliveries (tenant_id, customer_code_id, event_id, event_type, lock_id, occurred_at, data)
    values (${tenantId}, ${id}, ${eventId}, 'test', null, now(), ${JSON.stringify({ message: 'test event from the IoT platform' })}::jsonb)`);
  await emit(tx, 'push.queued', { tenantId, count: 1 });
  return eventId;
}

/** Columns of the delivery export. */
export const DELIVERY_EXPORT_COLUMNS: readonly ExportColumn<DeliveryRecord>[] = [
  { header: h('创建时间', 'Created at'), value: (r) => r.createdAt, width: 26, time: true },
  { header: h('客户编码', 'Customer code'), value: (r) => r.customerCode, width: 18 },
  { header: h('事件类型', 'Event type'), value: (r) => r.eventType, width: 16, labels: SUBSCRIPTION_LABELS.eventTypes },
  { header: h('事件ID', 'Event id'), value: (r) => r.eventId, width: 38 },
  { header: h('IMEI', 'IMEI'), value: (r) => r.imei },
  { header: h('门锁', 'Lock'), value: (r) => r.lockName },
  { header: h('状态', 'State'), value: (r) => r.state, width: 10, labels: SUBSCRIPTION_LABELS.deliveryStates },
  { header: h('尝试次数', 'Attempts'), value: (r) => r.attempts, width: 10 },
  { header: h('状态码', 'HTTP status'), value: (r) => r.lastStatus, width: 10 },
  { header: h('耗时(ms)', 'Latency (ms)'), value: (r) => r.lastLatencyMs, width: 12 },
  { header: h('错误', 'Error'), value: (r) => r.lastError, width: 30 },
  { header: h('下次重试', 'Next retry'), value: (r) => r.nextAttemptAt, width: 26, time: true },
  { header: h('送达时间', 'Delivered at'), value: (r) => r.deliveredAt, width: 26, time: true },
];
