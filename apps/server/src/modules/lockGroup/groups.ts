/**
 * 分组管理 (tables `lock_groups` and `lock_group_members`, written ONLY here): named lock
 * groups per data centre, a lock in any number of them. Every function takes the caller's tenant
 * transaction. Errors: 409 CONFLICT for a name the data centre already uses (field body.name); 404 for
 * a group id not in the data centre. Members are added by a device target (target.ts).
 */
import type { LockGroupAddMembersResult, LockGroupOption, LockGroupRecord, Page } from '@iot/contract';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { numberArray } from '../../db/array-literal.js';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { lockGroupMembers, lockGroups } from '../../db/schema.js';
import { rowCount } from '../../db/rows.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { type DeviceTargetInput, resolveDeviceTarget } from './target.js';

/** Locks a single add may bring into a group (a filter over the whole fleet included). */
export const GROUP_ADD_MAX = 100_000;

const nameTaken = () => new ApiError('CONFLICT', [{ field: 'body.name', message: { 'zh-CN': '已有同名分组', 'en-US': 'A group of this name already exists' } }]);

// Spelled out: drizzle would leave the outer column unqualified inside the subquery.
const memberCount = sql<number>`(select count(*) from lock_group_members m join locks l on l.id = m.lock_id
  where m.group_id = lock_groups.id and l.decommissioned_at is null and l.imei_released_at is null)`.mapWith(Number);

/** A page of the data centre's groups by name, each with its member count. */
export async function listGroups(tx: Executor, q: { keyword?: string; current: number; size: number }): Promise<Page<LockGroupRecord>> {
  const where = q.keyword ? (or(ilike(lockGroups.name, containsPattern(q.keyword)), ilike(lockGroups.description, containsPattern(q.keyword))) as SQL) : undefined;
  const [total] = await tx.select({ n: count() }).from(lockGroups).where(where);
  const rows = await tx.select({ id: lockGroups.id, name: lockGroups.name, description: lockGroups.description, createdAt: lockGroups.createdAt, memberCount })
    .from(lockGroups).where(where).orderBy(asc(lockGroups.name), asc(lockGroups.id)).limit(q.size).offset((q.current - 1) * q.size);
  return { records: rows.map((row) => ({ ...row, createdAt: iso(row.createdAt) as string })), total: total?.n ?? 0, current: q.current, size: q.size };
}

/** Every group of the data centre (id, name), by name. */
export async function groupOptions(tx: Executor): Promise<LockGroupOption[]> {
  return tx.select({ id: lockGroups.id, name: lockGroups.name }).from(lockGroups).orderBy(asc(lockGroups.name), asc(lockGroups.id));
}

/** The groups of one lock (id, name), by name. */
export async function groupsOfLock(tx: Executor, lockId: number): Promise<LockGroupOption[]> {
  return tx.select({ id: lockGroups.id, name: lockGroups.name }).from(lockGroupMembers)
    .innerJoin(lockGroups, eq(lockGroups.id, lockGroupMembers.groupId)).where(eq(lockGroupMembers.lockId, lockId)).orderBy(asc(lockGroups.name));
}

/** Creates a group; returns its id and name. */
export async function addGroup(tx: Executor, tenantId: number, input: { name: string; description: string }): Promise<LockGroupOption> {
  try {
    const [row] = await tx.insert(lockGroups).values({ tenantId, name: input.name, description: input.description }).returning({ id: lockGroups.id, name: lockGroups.name });
    return row as LockGroupOption;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** The group of `id` locked for update; 404 when not in the data centre. */
async function lockedGroup(tx: Executor, id: number, field = 'body.id') {
  const [row] = await tx.select({ id: lockGroups.id, tenantId: lockGroups.tenantId }).from(lockGroups).where(eq(lockGroups.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND', [{ field, message: { 'zh-CN': '分组不存在', 'en-US': 'There is no such group' } }]);
  return row;
}

/** Renames a group or changes its description. */
export async function updateGroup(tx: Executor, id: number, input: { name: string; description: string }): Promise<null> {
  await lockedGroup(tx, id);
  try {
    await tx.update(lockGroups).set({ name: input.name, description: input.description }).where(eq(lockGroups.id, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  return null;
}

/** Deletes a group and its memberships (the locks themselves stay). */
export async function deleteGroup(tx: Executor, id: number): Promise<null> {
  await lockedGroup(tx, id);
  await tx.delete(lockGroupMembers).where(eq(lockGroupMembers.groupId, id));
  await tx.delete(lockGroups).where(eq(lockGroups.id, id));
  return null;
}

/**
 * Adds the locks of `target` (at most GROUP_ADD_MAX; `wakeWindowMs` as for resolveDeviceTarget) to group `groupId` in one statement; locks
 * already in it stay once. Returns how many were added, how many were members already, and the
 * listed IMEIs the data centre does not have.
 */
export async function addMembers(tx: Executor, groupId: number, target: DeviceTargetInput, wakeWindowMs: number): Promise<LockGroupAddMembersResult> {
  const group = await lockedGroup(tx, groupId, 'body.groupId');
  const { lockIds, unknownImeis } = await resolveDeviceTarget(tx, group.tenantId, target, { max: GROUP_ADD_MAX, wakeWindowMs });
  if (lockIds.length === 0) return { added: 0, alreadyMembers: 0, unknownImeis };
  const added = rowCount(await tx.execute(sql`
    insert into lock_group_members (group_id, lock_id, tenant_id)
    select ${groupId}::int, v.id, ${group.tenantId}::int from unnest(${numberArray(lockIds)}::int[]) as v(id)
    on conflict do nothing`));
  return { added, alreadyMembers: lockIds.length - added, unknownImeis };
}

/** Removes locks from group `groupId`; returns how many were members. */
export async function removeMembers(tx: Executor, groupId: number, lockIds: readonly number[]): Promise<{ removed: number }> {
  await lockedGroup(tx, groupId, 'body.groupId');
  const removed = await tx.delete(lockGroupMembers)
    .where(and(eq(lockGroupMembers.groupId, groupId), sql`${lockGroupMembers.lockId} = any(${numberArray(lockIds)}::int[])`));
  return { removed: rowCount(removed) };
}
