/**
 * Reading work orders (table `work_orders`, owned by this module): one order or a page of them with
 * their locks (id, IMEI, name), the assignee's username and their photos' descriptions, newest first. In the caller's tenant
 * transaction or read (row-level security confines rows to the data centre).
 */
import type { Page, WorkOrderQuery, WorkOrderRecord } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';

type Row = Record<string, unknown>;

const date = (value: unknown) => (value === null || value === undefined ? null : iso(value as string));

function toRecord(row: Row): WorkOrderRecord {
  const locks = (typeof row.locks === 'string' ? JSON.parse(row.locks) : row.locks) as WorkOrderRecord['locks'];
  return {
    id: Number(row.id), title: String(row.title), kind: row.kind as WorkOrderRecord['kind'], priority: row.priority as WorkOrderRecord['priority'],
    state: row.state as WorkOrderRecord['state'], assigneeId: row.assignee_id === null ? null : Number(row.assignee_id),
    assigneeName: (row.assignee_name as string | null) ?? null, notes: String(row.notes), locks: locks.map((l) => ({ ...l, lockId: Number(l.lockId) })),
    alertIds: (row.alert_ids as (number | string)[]).map(Number), battery: row.battery === null ? null : Number(row.battery),
    confirmedAt: date(row.confirmed_at), createdBy: String(row.created_by), dueAt: date(row.due_at), createdAt: iso(row.created_at as string),
    updatedAt: iso(row.updated_at as string), closedAt: date(row.closed_at),
    photos: ((typeof row.photos === 'string' ? JSON.parse(row.photos) : row.photos) as WorkOrderRecord['photos'])
      .map((p) => ({ ...p, id: Number(p.id), createdAt: iso(p.createdAt) })),
  };
}

const SELECT = sql`
  select w.*, a.username as assignee_name,
    coalesce((select json_agg(json_build_object('lockId', l.id, 'imei', l.imei, 'lockName', l.name) order by l.id)
      from locks l where l.id = any(w.lock_ids)), '[]'::json) as locks,
    coalesce((select json_agg(json_build_object('id', p.id, 'fileName', p.file_name, 'contentType', p.content_type, 'sizeBytes', p.size_bytes,
        'width', p.width, 'height', p.height, 'createdBy', p.created_by, 'createdAt', p.created_at) order by p.id)
      from work_order_photos p where p.work_order_id = w.id), '[]'::json) as photos
  from work_orders w left join accounts a on a.id = w.assignee_id`;

/** Order `id` of the data centre, or undefined. */
export async function findWorkOrder(tx: Tx, id: number): Promise<WorkOrderRecord | undefined> {
  const [row] = rowsOf<Row>(await tx.execute(sql`${SELECT} where w.id = ${id}`));
  return row ? toRecord(row) : undefined;
}

/** A page of the data centre's orders matching `query`, newest first (created_at, then id). */
export async function listWorkOrders(tx: Tx, query: WorkOrderQuery): Promise<Page<WorkOrderRecord>> {
  const where: SQL[] = [sql`true`];
  if (query.state) where.push(sql`w.state = ${query.state}`);
  if (query.kind) where.push(sql`w.kind = ${query.kind}`);
  if (query.priority) where.push(sql`w.priority = ${query.priority}`);
  if (query.assigneeId) where.push(sql`w.assignee_id = ${query.assigneeId}`);
  if (query.imei) where.push(sql`exists (select 1 from locks l where l.id = any(w.lock_ids) and l.imei = ${query.imei})`);
  if (query.alertId) where.push(sql`w.alert_ids @> array[${query.alertId}]::bigint[]`);
  if (query.startTime) where.push(sql`w.created_at >= ${query.startTime}::timestamptz`);
  if (query.endTime) where.push(sql`w.created_at <= ${query.endTime}::timestamptz`);
  const condition = sql.join(where, sql` and `);
  const [counted] = rowsOf<{ n: number | string }>(await tx.execute(sql`select count(*) as n from work_orders w where ${condition}`));
  const rows = rowsOf<Row>(await tx.execute(sql`
    ${SELECT} where ${condition} order by w.created_at desc, w.id desc limit ${query.size} offset ${(query.current - 1) * query.size}`));
  return { records: rows.map(toRecord), total: Number(counted?.n ?? 0), current: query.current, size: query.size };
}

/** Enabled accounts the data centre sees (row-level security on accounts), by username, at most 500. */
export async function listAssignees(tx: Tx): Promise<{ id: number; username: string }[]> {
  return rowsOf<{ id: number; username: string }>(await tx.execute(sql`select id, username from accounts where enabled order by username limit 500`))
    .map((row) => ({ id: Number(row.id), username: row.username }));
}
