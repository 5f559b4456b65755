/**
 * Puts holiday calendars on locks: a lock should hold, as Matter HolidaySchedules, the
 * entries of every calendar whose scope includes it that have not ended, nearest first, up to its
 * device type's NumberOfHolidaySchedulesSupported. `reconcileLock` compares that with what the lock
 * holds (lock_holiday_schedules, as last sent) and queues the difference: a changed entry is set again
 * at its index, a row no longer wanted is re-used for a new entry (a Set at an index replaces) or
 * cleared, a new entry is set at a free index. Rows follow their commands (sync.ts).
 */
import type { OperatingMode, protocol } from '@iot/contract';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { holidayEntries, lockHolidaySchedules } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { ACTIVE_STATE, type Actor, isFailed, type PendingAction, send } from '../credential/ops.js';
import { findLock } from '../credential/repo.js';
import { calendarsOfLock, entryWindow } from './repo.js';

type Row = typeof lockHolidaySchedules.$inferSelect;
interface Wanted {
  entryId: number;
  calendarId: number;
  name: string;
  localStartTime: Date;
  localEndTime: Date;
  operatingMode: string;
  worksAs: string | null;
}

/** The holidaySchedule downlink of a row's pending action. */
export function holidayDownlink(row: Row): { type: protocol.DownlinkType; data: Record<string, unknown> } {
  if (row.pendingAction === 'delete') return { type: 'holidaySchedule', data: { action: 'clear', index: row.holidayIndex } };
  return { type: 'holidaySchedule', data: {
    action: 'set', index: row.holidayIndex, localStartTime: row.localStartTime.getTime(), localEndTime: row.localEndTime.getTime(),
    operatingMode: row.operatingMode as OperatingMode, ...(row.worksAs ? { worksAs: row.worksAs } : {}),
  } };
}

async function dispatch(tx: Executor, actor: Actor, id: number, action: PendingAction): Promise<number> {
  const [row] = await tx.update(lockHolidaySchedules).set({ pendingAction: action, syncState: ACTIVE_STATE[action], updatedAt: sql`now()` })
    .where(eq(lockHolidaySchedules.id, id)).returning();
  if (!row) throw new ApiError('NOT_FOUND');
  const logAction = action === 'delete' ? 'delete' : action === 'add' ? 'add' : 'modify';
  const command = await send(tx, actor, row.lockId, holidayDownlink(row), { subject: 'holiday', action: logAction, rowId: row.id, slot: row.holidayIndex, holderName: row.name });
  await tx.update(lockHolidaySchedules).set({ lastCommandId: command.id }).where(eq(lockHolidaySchedules.id, id));
  return command.id;
}

/** What the lock should hold now (see the module comment). */
async function wanted(tx: Executor, tenantId: number, lockId: number, capacity: number): Promise<Wanted[]> {
  const calendars = await calendarsOfLock(tx, tenantId, lockId);
  if (calendars.length === 0 || capacity === 0) return [];
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const entries = await tx.select().from(holidayEntries)
    .where(and(inArray(holidayEntries.calendarId, calendars.map((c) => c.id)), gte(holidayEntries.endDate, today)))
    .orderBy(holidayEntries.startDate, holidayEntries.id);
  return entries.slice(0, capacity).map((entry) => {
    const window = entryWindow(entry);
    return {
      entryId: entry.id, calendarId: entry.calendarId, name: entry.name, localStartTime: new Date(window.start), localEndTime: new Date(window.end),
      operatingMode: entry.operatingMode, worksAs: entry.worksAs,
    };
  });
}

const sameContent = (row: Row, want: Wanted) => row.localStartTime.getTime() === want.localStartTime.getTime() && row.localEndTime.getTime() === want.localEndTime.getTime()
  && row.operatingMode === want.operatingMode && (row.worksAs ?? null) === want.worksAs && row.name === want.name;
const BUSY = ['adding', 'modifying', 'deleting'];

/** Brings one lock's holiday schedules in line with its calendars; returns the commands queued. */
export async function reconcileLock(tx: Executor, actor: Actor, lockId: number): Promise<number[]> {
  const lock = await findLock(tx, { lockId }, true);
  const want = await wanted(tx, actor.tenantId, lockId, lock.rules.access.holidaySchedules);
  const rows = await tx.select().from(lockHolidaySchedules).where(eq(lockHolidaySchedules.lockId, lockId)).orderBy(lockHolidaySchedules.holidayIndex);
  const commands: number[] = [];
  const fresh: Wanted[] = [];
  const spare: Row[] = [];
  for (const item of want) {
    const row = rows.find((r) => r.entryId === item.entryId && r.pendingAction !== 'delete');
    if (!row) fresh.push(item);
    else if (!sameContent(row, item) || isFailed(row.syncState)) {
      if (BUSY.includes(row.syncState)) throw new ApiError('CREDENTIAL_BUSY');
      await tx.update(lockHolidaySchedules).set({ ...item }).where(eq(lockHolidaySchedules.id, row.id));
      commands.push(await dispatch(tx, actor, row.id, row.syncState === 'add_failed' ? 'add' : 'modify'));
    }
  }
  const keep = new Set(want.map((item) => item.entryId));
  for (const row of rows) if (!(row.entryId !== null && keep.has(row.entryId)) && !(row.pendingAction === 'delete' && BUSY.includes(row.syncState))) spare.push(row);
  for (const row of spare) {
    const item = fresh.shift();
    if (row.syncState === 'add_failed' && !item) {
      await tx.delete(lockHolidaySchedules).where(eq(lockHolidaySchedules.id, row.id)); // never reached the lock
      continue;
    }
    if (BUSY.includes(row.syncState)) throw new ApiError('CREDENTIAL_BUSY');
    if (item) await tx.update(lockHolidaySchedules).set({ ...item }).where(eq(lockHolidaySchedules.id, row.id));
    commands.push(await dispatch(tx, actor, row.id, item ? (row.syncState === 'add_failed' ? 'add' : 'modify') : 'delete'));
  }
  const used = new Set(rows.map((row) => row.holidayIndex));
  for (const item of fresh) {
    let index = 0;
    while (used.has(index)) index++;
    used.add(index);
    const [row] = await tx.insert(lockHolidaySchedules).values({ tenantId: actor.tenantId, lockId, holidayIndex: index, ...item, syncState: 'adding', pendingAction: 'add' })
      .returning({ id: lockHolidaySchedules.id });
    commands.push(await dispatch(tx, actor, row?.id as number, 'add'));
  }
  return commands;
}
