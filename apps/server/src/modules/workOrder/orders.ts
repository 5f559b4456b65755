/**
 * The work-order writer (table `work_orders`, owned by this module, docs/work-orders.md):
 * add, add from alerts, edit and move between states (contract WORK_ORDER_TRANSITIONS), in the
 * caller's tenant transaction. The routes' system-log row is written in that same transaction
 * (http/endpoint.ts). Errors: 400 (VALIDATION_FAILED) naming the field for an unknown lock, alert or
 * assignee, or a battery order closed without its reading; 404 for an unknown order; 409 on `state`
 * for an illegal move.
 */
import {
  canTransition, type Language, WORK_ORDER_LABELS, WORK_ORDER_TRANSITIONS, type WorkOrderAddBody, type WorkOrderEditBody, type WorkOrderFromAlertsBody, type WorkOrderKind,
  type WorkOrderRecord, type WorkOrderState, type WorkOrderTransitionBody,
} from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import { findWorkOrder } from './repo.js';

type Row = Record<string, unknown>;

/** The kind of order an alert kind suggests (battery, tamper, offline; other otherwise). */
export function kindForAlert(alertKind: string): WorkOrderKind {
  if (alertKind === 'lowBattery') return 'batteryReplacement';
  if (alertKind === 'tamper' || alertKind === 'forcedEntry' || alertKind === 'forcedOpen') return 'tamperInspection';
  if (alertKind === 'silentLock') return 'offlineInspection';
  return 'other';
}

/** Lock ids of `refs` (a number: lock id; a string: IMEI) in the data centre; 400 on `field` for one it lacks. */
async function resolveLocks(tx: Tx, refs: readonly (number | string)[], field: string): Promise<number[]> {
  const ids = refs.filter((r): r is number => typeof r === 'number');
  const imeis = refs.filter((r): r is string => typeof r === 'string');
  const rows = rowsOf<{ id: number; imei: string }>(await tx.execute(sql`
    select id, imei from locks where id = any(${sql.param(ids)}::int[]) or imei = any(${sql.param(imeis)}::text[])`));
  const found = new Set(rows.flatMap((r) => [Number(r.id), r.imei]));
  if (refs.some((r) => !found.has(r))) throw fieldError(field, '门锁不存在', 'A lock does not exist');
  return [...new Set(rows.map((r) => Number(r.id)))].sort((a, b) => a - b);
}

/** 400 on body.assigneeId unless `id` is null or an account the data centre sees. */
async function checkAssignee(tx: Tx, id: number | null): Promise<void> {
  if (id === null) return;
  if (rowsOf(await tx.execute(sql`select 1 from accounts where id = ${id}`)).length === 0) throw fieldError('body.assigneeId', '账号不存在', 'The account does not exist');
}

interface NewOrder {
  title: string; kind: WorkOrderKind; priority: string; assigneeId: number | null; dueAt: string | null; notes: string;
  lockIds: readonly number[]; alertIds: readonly number[]; createdBy: string;
}

/** Inserts an order (OPEN); returns its id. */
export async function insertWorkOrder(tx: Tx, tenantId: number, order: NewOrder): Promise<number> {
  const [row] = rowsOf<Row>(await tx.execute(sql`
    insert into work_orders (tenant_id, title, kind, priority, assignee_id, due_at, notes, lock_ids, alert_ids, created_by)
    values (${tenantId}, ${order.title}, ${order.kind}, ${order.priority}, ${order.assigneeId}, ${order.dueAt}::timestamptz, ${order.notes},
      ${sql.param([...order.lockIds])}::int[], ${sql.param([...order.alertIds])}::bigint[], ${order.createdBy})
    returning id`));
  return Number(row?.id);
}

async function read(tx: Tx, id: number): Promise<WorkOrderRecord> {
  const record = await findWorkOrder(tx, id);
  if (!record) throw new ApiError('NOT_FOUND');
  return record;
}

/** Adds an order on `body.locks`, created by `username`. */
export async function addWorkOrder(tx: Tx, tenantId: number, username: string, body: WorkOrderAddBody): Promise<WorkOrderRecord> {
  const lockIds = await resolveLocks(tx, body.locks, 'body.locks');
  await checkAssignee(tx, body.assigneeId);
  return read(tx, await insertWorkOrder(tx, tenantId, { ...body, lockIds, alertIds: [], createdBy: username }));
}

/**
 * One order on the locks of alerts `body.alertIds` (400 on alertIds for an alert the data centre lacks); kind and
 * title default from the first alert, the title in the caller's `language` (e.g. "更换电池 (3)" / "Battery replacement (3)").
 */
export async function addFromAlerts(tx: Tx, tenantId: number, username: string, body: WorkOrderFromAlertsBody, language: Language = 'zh-CN'): Promise<WorkOrderRecord> {
  const alertIds = [...new Set(body.alertIds)];
  const rows = rowsOf<{ id: number; lock_id: number; kind: string }>(await tx.execute(sql`
    select id, lock_id, kind from alerts where id = any(${sql.param(alertIds)}::bigint[]) and device_kind = 'lock' order by id`));
  if (rows.length !== alertIds.length) throw fieldError('body.alertIds', '告警不存在', 'An alert does not exist');
  await checkAssignee(tx, body.assigneeId);
  const kind = body.kind ?? kindForAlert(String(rows[0]?.kind));
  const lockIds = [...new Set(rows.map((r) => Number(r.lock_id)))].sort((a, b) => a - b);
  const title = body.title ?? `${WORK_ORDER_LABELS.kinds[kind][language]} (${lockIds.length})`;
  return read(tx, await insertWorkOrder(tx, tenantId, {
    title, kind, priority: body.priority, assigneeId: body.assigneeId, dueAt: body.dueAt, notes: body.notes, lockIds, alertIds, createdBy: username,
  }));
}

/** Edits an open or in-progress order's fields; 409 on body.id for a DONE or CANCELLED one, 404 when it is not in the data centre. */
export async function editWorkOrder(tx: Tx, body: WorkOrderEditBody): Promise<WorkOrderRecord> {
  await checkAssignee(tx, body.assigneeId);
  const [row] = rowsOf<Row>(await tx.execute(sql`select state, kind, notes from work_orders where id = ${body.id} for update`));
  if (!row) throw new ApiError('NOT_FOUND');
  const state = row.state as WorkOrderState;
  // A finished order (no move left: DONE, CANCELLED) is a record, not a plan: it is not edited.
  if (WORK_ORDER_TRANSITIONS[state].length === 0) {
    const label = WORK_ORDER_LABELS.states[state];
    throw conflictError('body.id', `工单已“${label['zh-CN']}”，不能再修改`, `A work order that is ${label['en-US']} cannot be edited`);
  }
  await tx.execute(sql`
    update work_orders set title = ${body.title}, kind = ${body.kind}, priority = ${body.priority}, assignee_id = ${body.assigneeId},
      due_at = ${body.dueAt}::timestamptz, notes = ${body.notes}, updated_at = now()
    where id = ${body.id}`);
  return read(tx, body.id);
}

/** Appends a dated line to notes. */
export const withNote = (notes: string, line: string) => (notes ? `${notes}\n${line}` : line);

/**
 * Moves order `body.id` to `body.state` (409 on body.state when WORK_ORDER_TRANSITIONS forbids it). DONE
 * on a battery order needs `body.battery` (the new reading, %), which the next heartbeats confirm.
 */
export async function transitionWorkOrder(tx: Tx, username: string, body: WorkOrderTransitionBody): Promise<WorkOrderRecord> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select state, kind, notes from work_orders where id = ${body.id} for update`));
  if (!row) throw new ApiError('NOT_FOUND');
  const from = row.state as WorkOrderState;
  if (!canTransition(from, body.state)) {
    const label = (s: WorkOrderState) => WORK_ORDER_LABELS.states[s];
    throw conflictError('body.state', `工单不能从“${label(from)['zh-CN']}”变为“${label(body.state)['zh-CN']}”`,
      `A work order cannot go from ${label(from)['en-US']} to ${label(body.state)['en-US']}`);
  }
  const battery = body.state === 'DONE' && row.kind === 'batteryReplacement' ? body.battery : undefined;
  if (body.state === 'DONE' && row.kind === 'batteryReplacement' && battery === undefined) {
    throw fieldError('body.battery', '更换电池工单完成时须填写新电量', 'Closing a battery order needs the new battery reading');
  }
  const notes = body.note ? withNote(String(row.notes), `${username}: ${body.note}`) : String(row.notes);
  const closing = body.state === 'DONE' || body.state === 'CANCELLED';
  await tx.execute(sql`
    update work_orders set state = ${body.state}, notes = ${notes}, updated_at = now(), battery = ${battery ?? null},
      confirmed_lock_ids = '{}', confirmed_at = null, closed_at = ${closing ? sql`now()` : null}
    where id = ${body.id}`);
  return read(tx, body.id);
}
