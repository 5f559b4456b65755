/**
 * Bulk: give every lock user of a device target's locks (narrowed by a name/phone keyword
 * and a user type, e.g. all 保洁 of building A) the same schedules. With `replace`, each user's
 * schedules of the template's kinds are rewritten in place (a Matter Set at the same index replaces),
 * extra ones cleared, missing ones added; without it the template's schedules are added. Every user's
 * result is checked like a single add (capacity, duplicate, overlap). One savepoint per lock: a lock
 * that refuses (QUEUE_FULL, a schedule still syncing, RESOURCE_EXHAUSTED) reports its error and
 * changes nothing; the others go on.
 */
import type { applyScheduleTemplateBody } from '@iot/contract';
import { and, eq, ilike, inArray, notInArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { accessSchedules, lockUsers } from '../../db/schema.js';
import { containsPattern } from '../../db/sql.js';
import { type LockResult, perLock } from '../credential/bulk.js';
import { type Actor, checkIdle } from '../credential/ops.js';
import { findLock } from '../credential/repo.js';
import { adjustUserTypeForSchedule } from '../credential/users.js';
import { resolveDeviceTarget } from '../lockGroup/target.js';
import { valueOfRow } from './repo.js';
import { checkSchedule, type ScheduleValue, scheduleValue } from './rules.js';
import { columnsOf, dispatchSchedule } from './schedules.js';

type Body = z.output<typeof applyScheduleTemplateBody>;
/** Most locks one template may reach. */
const MAX_LOCKS = 1000;

/** Gives one user the template; returns the commands queued. */
async function applyToUser(tx: Executor, actor: Actor, userId: number, values: readonly ScheduleValue[], replace: boolean): Promise<number[]> {
  const [user] = await tx.select().from(lockUsers).where(eq(lockUsers.id, userId)).for('update');
  if (!user) return [];
  const lock = await findLock(tx, { lockId: user.lockId });
  const rows = await tx.select().from(accessSchedules).where(eq(accessSchedules.lockUserId, userId)).orderBy(accessSchedules.scheduleIndex);
  const kinds = new Set(values.map((value) => value.kind));
  const reusable = replace ? rows.filter((row) => kinds.has(row.kind as ScheduleValue['kind'])) : [];
  const kept = rows.filter((row) => !reusable.includes(row)).map(valueOfRow);
  const planned: ScheduleValue[] = [];
  const used = new Set(rows.map((row) => `${row.kind}:${row.scheduleIndex}`));
  const commands: number[] = [];
  const dispatched = async (id: number, action: 'add' | 'modify' | 'delete') => {
    await dispatchSchedule(tx, actor, id, action);
    const [after] = await tx.select({ commandId: accessSchedules.lastCommandId }).from(accessSchedules).where(eq(accessSchedules.id, id));
    if (after?.commandId) commands.push(after.commandId);
  };
  for (const value of values) {
    checkSchedule(value, [...kept, ...planned], lock.rules.access);
    planned.push(value);
    const reuse = reusable.find((row) => row.kind === value.kind);
    if (reuse) {
      reusable.splice(reusable.indexOf(reuse), 1);
      checkIdle(reuse, 'modify');
      await tx.update(accessSchedules).set(columnsOf(value)).where(eq(accessSchedules.id, reuse.id));
      await dispatched(reuse.id, 'modify');
      continue;
    }
    let index = 0;
    while (used.has(`${value.kind}:${index}`)) index++;
    used.add(`${value.kind}:${index}`);
    const [row] = await tx.insert(accessSchedules).values({
      tenantId: actor.tenantId, lockId: user.lockId, lockUserId: userId, kind: value.kind, scheduleIndex: index, ...columnsOf(value),
      syncState: 'adding', pendingAction: 'add', createdBy: actor.username,
    }).returning({ id: accessSchedules.id });
    await dispatched(row?.id as number, 'add');
  }
  for (const row of reusable) {
    checkIdle(row, 'delete');
    await dispatched(row.id, 'delete');
  }
  await adjustUserTypeForSchedule(tx, userId);
  return commands;
}

/** Applies the template (see the module comment); per-lock results. */
export async function applyTemplate(tx: Executor, actor: Actor, body: Body): Promise<{ locks: LockResult[] }> {
  const { lockIds } = await resolveDeviceTarget(tx, actor.tenantId, body.target, { max: MAX_LOCKS });
  if (lockIds.length === 0) return { locks: [] };
  const p = body.userKeyword ? containsPattern(body.userKeyword) : undefined;
  const users = await tx.select({ id: lockUsers.id, lockId: lockUsers.lockId }).from(lockUsers).where(and(
    inArray(lockUsers.lockId, lockIds), notInArray(lockUsers.syncState, ['add_failed', 'deleting', 'delete_failed']),
    p ? or(ilike(lockUsers.name, p), ilike(lockUsers.phone, p)) : undefined,
    body.userType ? eq(lockUsers.userType, body.userType) : undefined,
  )).orderBy(lockUsers.id);
  const values = body.schedules.map(scheduleValue);
  const locks = await perLock(tx, users, 'schedule', (sp, id) => applyToUser(sp, actor, id, values, body.replace));
  return { locks };
}
