/**
 * Schedules of lock users (时间表管理): add, modify, delete, retry and discard, like the
 * credentials (modules/credential). A row is written with its sync state and pending action, then the
 * weekDaySchedule / yearDaySchedule downlink carrying it is queued (credential/ops.ts send); sync.ts
 * settles the state when the command finishes. Checks: rules.ts (capacity, duplicate, overlap).
 */
import type { accessScheduleBody, AccessScheduleRecord, protocol } from '@iot/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { accessSchedules, lockUsers } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { ACTIVE_STATE, type Actor, checkIdle, isFailed, logOperation, type PendingAction, send } from '../credential/ops.js';
import { findLock } from '../credential/repo.js';
import { adjustUserTypeForSchedule, lockedUser } from '../credential/users.js';
import { scheduleRecord, valueOfRow } from './repo.js';
import { checkSchedule, type ScheduleValue, scheduleValue } from './rules.js';

type Body = z.output<typeof accessScheduleBody>;
type Row = typeof accessSchedules.$inferSelect;
export interface Done {
  record: AccessScheduleRecord;
  lockId: number;
}

/** Table columns of a schedule value. */
export function columnsOf(value: ScheduleValue) {
  return value.kind === 'weekDay'
    ? { daysMask: value.daysMask, startMinute: value.startMinute, endMinute: value.endMinute, localStartTime: null, localEndTime: null }
    : { daysMask: null, startMinute: null, endMinute: null, localStartTime: new Date(value.start), localEndTime: new Date(value.end) };
}

/** The downlink carrying a row's pending action for the user in `userSlot`. */
export function scheduleDownlink(row: Row, userSlot: number): { type: protocol.DownlinkType; data: Record<string, unknown> } {
  const type = row.kind === 'weekDay' ? 'weekDaySchedule' : 'yearDaySchedule';
  const base = { userSlot, index: row.scheduleIndex };
  if (row.pendingAction === 'delete') return { type, data: { action: 'clear', ...base } };
  const value = valueOfRow(row);
  if (value.kind === 'weekDay') {
    const { daysMask, startMinute, endMinute } = value;
    return { type, data: { action: 'set', ...base, daysMask, startHour: Math.floor(startMinute / 60), startMinute: startMinute % 60, endHour: Math.floor(endMinute / 60), endMinute: endMinute % 60 } };
  }
  return { type, data: { action: 'set', ...base, localStartTime: value.start, localEndTime: value.end } };
}

/** Sets a row's pending action and state and queues its command. */
export async function dispatchSchedule(tx: Executor, actor: Actor, id: number, action: PendingAction, logAction: 'add' | 'modify' | 'delete' | 'retry' = action as 'add'): Promise<number> {
  const [row] = await tx.update(accessSchedules).set({ pendingAction: action, syncState: ACTIVE_STATE[action], updatedAt: sql`now()` })
    .where(eq(accessSchedules.id, id)).returning();
  if (!row) throw new ApiError('NOT_FOUND');
  const [user] = await tx.select({ userSlot: lockUsers.userSlot, name: lockUsers.name }).from(lockUsers).where(eq(lockUsers.id, row.lockUserId));
  const command = await send(tx, actor, row.lockId, scheduleDownlink(row, user?.userSlot ?? 0), { subject: 'schedule', action: logAction, rowId: row.id, slot: row.scheduleIndex, holderName: user?.name });
  await tx.update(accessSchedules).set({ lastCommandId: command.id }).where(eq(accessSchedules.id, id));
  return row.lockId;
}

async function lockedSchedule(tx: Executor, id: number): Promise<Row> {
  const [row] = await tx.select().from(accessSchedules).where(eq(accessSchedules.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Adds a schedule to lock user `lockUserId` (the user row locked: concurrent adds take turns). */
export async function addSchedule(tx: Executor, actor: Actor, lockUserId: number, value: ScheduleValue): Promise<Done> {
  const user = await lockedUser(tx, lockUserId);
  if (['add_failed', 'deleting', 'delete_failed'].includes(user.syncState)) {
    throw new ApiError('CONFLICT', [{ field: 'body.lockUserId', message: { 'zh-CN': '该门锁用户不在门锁上或正在删除', 'en-US': 'This lock user is not on the lock or is being deleted' } }]);
  }
  const lock = await findLock(tx, { lockId: user.lockId });
  const rows = await tx.select().from(accessSchedules).where(eq(accessSchedules.lockUserId, lockUserId));
  checkSchedule(value, rows.map(valueOfRow), lock.rules.access);
  const used = new Set(rows.filter((row) => row.kind === value.kind).map((row) => row.scheduleIndex));
  let index = 0;
  while (used.has(index)) index++;
  const [row] = await tx.insert(accessSchedules).values({
    tenantId: actor.tenantId, lockId: user.lockId, lockUserId, kind: value.kind, scheduleIndex: index, ...columnsOf(value),
    syncState: 'adding', pendingAction: 'add', createdBy: actor.username,
  }).returning({ id: accessSchedules.id });
  const id = row?.id as number;
  await adjustUserTypeForSchedule(tx, lockUserId);
  await dispatchSchedule(tx, actor, id, 'add');
  return { record: await scheduleRecord(tx, id), lockId: user.lockId };
}

/** Runs one operation of 时间表管理. */
export async function operateSchedule(tx: Executor, actor: Actor, body: Body): Promise<Done> {
  if (body.action === 'add') return addSchedule(tx, actor, body.lockUserId, scheduleValue(body.schedule));
  const row = await lockedSchedule(tx, body.id);
  checkIdle(row, body.action);
  if (body.action === 'modify') {
    const value = scheduleValue(body.schedule);
    if (value.kind !== row.kind) throw fieldError('body.schedule.kind', '不能修改时间表的类型', 'The kind of a schedule cannot change');
    const lock = await findLock(tx, { lockId: row.lockId });
    const others = await tx.select().from(accessSchedules).where(and(eq(accessSchedules.lockUserId, row.lockUserId), ne(accessSchedules.id, row.id)));
    checkSchedule(value, others.map(valueOfRow), lock.rules.access);
    await tx.update(accessSchedules).set(columnsOf(value)).where(eq(accessSchedules.id, row.id));
  }
  await dispatchSchedule(tx, actor, row.id, body.action);
  return { record: await scheduleRecord(tx, row.id), lockId: row.lockId };
}

/** Re-sends the failed operation of a schedule (409 NOT_FAILED otherwise). */
export async function retrySchedule(tx: Executor, actor: Actor, id: number): Promise<Done> {
  const row = await lockedSchedule(tx, id);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  const lockId = await dispatchSchedule(tx, actor, id, row.pendingAction as PendingAction, 'retry');
  return { record: await scheduleRecord(tx, id), lockId };
}

/** Deletes the platform row of a failed schedule without sending anything. */
export async function discardSchedule(tx: Executor, actor: Actor, id: number): Promise<{ id: number }> {
  const row = await lockedSchedule(tx, id);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  await tx.delete(accessSchedules).where(eq(accessSchedules.id, id));
  await logOperation(tx, actor, row.lockId, { subject: 'schedule', action: 'discard', rowId: id, slot: row.scheduleIndex });
  return { id };
}
