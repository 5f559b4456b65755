/**
 * What opens, confirms and reopens work orders without an operator (docs/work-orders.md):
 * - `openForAlarms`: a notification rule with `openWorkOrder` matched a lock alert (called by the
 *   notification producer in its transaction): an order of that kind opens for the lock unless one of
 *   the same kind is already OPEN or IN_PROGRESS on it (idempotent).
 * - `confirmBatteries`: new heartbeats of locks (the `lock.heartbeat` event, after commit): a DONE
 *   battery order is confirmed (`confirmed_at`) once every linked lock reported, after the order was
 *   closed, a battery of at least the recorded reading minus BATTERY_CONFIRM_TOLERANCE; a lock still
 *   below LOW_BATTERY_PERCENT reopens it (OPEN, with a system note).
 * Every change writes a system-log row (username `system`) in the same transaction.
 */
import { BATTERY_CONFIRM_TOLERANCE, LOW_BATTERY_PERCENT, WORK_ORDER_KINDS, type WorkOrderKind } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { insertAudit } from '../auditLog/repo.js';
import { insertWorkOrder, withNote } from './orders.js';

/** A matched alarm that asks for an order: the rule's id and kind to open. */
export interface AlarmForOrder {
  ruleId: number;
  kind: string;
  lockId: number;
  alertId: number | null;
}

const audit = (tx: Tx, tenantId: number, action: string, id: number, detail: Record<string, unknown>) =>
  insertAudit(tx, { tenantId, accountId: null, username: 'system', action, target: String(id), result: 'success', clientIp: '', detail });

/** Opens the orders `alarms` ask for (see the module comment); returns the new orders' ids. */
export async function openForAlarms(tx: Tx, tenantId: number, alarms: readonly AlarmForOrder[]): Promise<number[]> {
  const opened: number[] = [];
  const seen = new Set<string>();
  for (const alarm of alarms) {
    if (!(WORK_ORDER_KINDS as readonly string[]).includes(alarm.kind)) continue;
    const key = `${alarm.lockId}:${alarm.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const open = rowsOf(await tx.execute(sql`
      select id from work_orders where kind = ${alarm.kind} and state in ('OPEN', 'IN_PROGRESS') and lock_ids @> array[${alarm.lockId}]::int[] limit 1`));
    if (open.length > 0) continue;
    const [lock] = rowsOf<{ name: string }>(await tx.execute(sql`select name from locks where id = ${alarm.lockId}`));
    if (!lock) continue;
    const id = await insertWorkOrder(tx, tenantId, {
      title: lock.name, kind: alarm.kind as WorkOrderKind, priority: 'normal', assigneeId: null, dueAt: null, notes: '',
      lockIds: [alarm.lockId], alertIds: alarm.alertId === null ? [] : [alarm.alertId], createdBy: `rule:${alarm.ruleId}`,
    });
    await audit(tx, tenantId, 'work-order-opened', id, { ruleId: alarm.ruleId, lockId: alarm.lockId, alertId: alarm.alertId });
    opened.push(id);
  }
  return opened;
}

/** Applies new heartbeats of `lockIds` to closed, unconfirmed battery orders (see the module comment); returns the orders changed. */
export async function confirmBatteries(tx: Tx, tenantId: number, lockIds: readonly number[]): Promise<{ confirmed: number[]; reopened: number[] }> {
  const orders = rowsOf<{ id: number; battery: number; lock_ids: number[]; confirmed_lock_ids: number[]; notes: string; closed_at: string }>(await tx.execute(sql`
    select id, battery, lock_ids, confirmed_lock_ids, notes, closed_at from work_orders
    where state = 'DONE' and kind = 'batteryReplacement' and confirmed_at is null and battery is not null
      and lock_ids && ${sql.param([...lockIds])}::int[] for update`));
  const result = { confirmed: [] as number[], reopened: [] as number[] };
  for (const order of orders) {
    const readings = rowsOf<{ id: number; battery: number | null }>(await tx.execute(sql`
      select id, battery from locks where id = any(${sql.param(order.lock_ids.filter((id) => lockIds.includes(Number(id))).map(Number))}::int[])
        and last_heartbeat_at > ${order.closed_at}::timestamptz and battery is not null`));
    const low = readings.filter((r) => Number(r.battery) < LOW_BATTERY_PERCENT);
    const id = Number(order.id);
    if (low.length > 0) {
      const line = `system: ${low.map((r) => `#${r.id} ${r.battery}%`).join(', ')} < ${LOW_BATTERY_PERCENT}% — 电量仍低，工单重开 / battery still low, reopened`;
      await tx.execute(sql`
        update work_orders set state = 'OPEN', battery = null, confirmed_lock_ids = '{}', closed_at = null, updated_at = now(),
          notes = ${withNote(String(order.notes), line)} where id = ${id}`);
      await audit(tx, tenantId, 'work-order-reopened', id, { low: low.map((r) => ({ lockId: Number(r.id), battery: Number(r.battery) })) });
      result.reopened.push(id);
      continue;
    }
    const good = readings.filter((r) => Number(r.battery) >= Number(order.battery) - BATTERY_CONFIRM_TOLERANCE).map((r) => Number(r.id));
    if (good.length === 0) continue;
    const confirmed = [...new Set([...order.confirmed_lock_ids.map(Number), ...good])];
    const all = order.lock_ids.every((lockId) => confirmed.includes(Number(lockId)));
    await tx.execute(sql`
      update work_orders set confirmed_lock_ids = ${sql.param(confirmed)}::int[], confirmed_at = ${all ? sql`now()` : null}, updated_at = now() where id = ${id}`);
    if (all) {
      await audit(tx, tenantId, 'work-order-confirmed', id, { lockIds: confirmed });
      result.confirmed.push(id);
    }
  }
  return result;
}
