/**
 * "Who can open door X at T" (with access schedules and holiday modes): every credential
 * confirmed on the lock (any sync state but adding / add_failed: a pending or failed delete may still
 * open) decided by the lock's own rules (contract decideAccess) with what the lock holds: the
 * credential's window and a one-time password's reported use, its holder's status, window, user type
 * and schedules (schedule module), an expiring user's first reported use, and the holiday schedules in
 * force (holiday calendar module). Answers who can and, for the others, why not. A view above the
 * credential, schedule and holiday modules (they sync each other's rows; none of them imports this).
 */
import { type AccessUser, type CredentialRecord, decideAccess, holidayState, type UserType, type WeekDayRule, type YearDayRule } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { credentials, lockUsers, openRecords } from '../../db/schema.js';
import { heldSchedules } from '../accessSchedule/repo.js';
import { heldHolidays } from '../holidayCalendar/repo.js';
import { findLock, selectCredentials } from '../credential/repo.js';

const time = (value: string | null) => (value === null ? undefined : Date.parse(value));

/** Lock users of the lock as the decision reads them (schedules attached), by user id. */
async function accessUsers(tx: Executor, lockId: number, at: Date): Promise<Map<number, AccessUser>> {
  const rows = await tx.select().from(lockUsers).where(eq(lockUsers.lockId, lockId));
  const schedules = await heldSchedules(tx, lockId);
  const users = new Map<number, AccessUser>();
  for (const row of rows) {
    const held = schedules.get(row.id) ?? [];
    const firstUse = row.userType === 'expiringUser' ? await firstUsed(tx, lockId, row.userSlot, row.createdAt, at) : undefined;
    users.set(row.id, {
      userType: row.userType as UserType, frozen: row.status === 'frozen', validFrom: row.validFrom?.getTime(), validTo: row.validTo?.getTime(),
      weekDay: held.filter((s): s is WeekDayRule & { kind: 'weekDay' } => s.kind === 'weekDay'),
      yearDay: held.flatMap((s): YearDayRule[] => (s.kind === 'yearDay' ? [{ start: s.start, end: s.end }] : [])),
      expiringMinutes: row.expiringMinutes ?? undefined, firstUsedAt: firstUse,
    });
  }
  return users;
}

/** The lock time of a user slot's first reported successful open since the user was added, up to `at`. */
async function firstUsed(tx: Executor, lockId: number, userSlot: number, since: Date, at: Date): Promise<number | undefined> {
  const [row] = await tx.select({ first: sql<string | null>`min(${openRecords.lockTime})` }).from(openRecords)
    .where(and(eq(openRecords.lockId, lockId), eq(openRecords.userSlot, userSlot), eq(openRecords.success, true),
      sql`${openRecords.lockTime} >= ${since.toISOString()}::timestamptz and ${openRecords.lockTime} <= ${at.toISOString()}::timestamptz`));
  return row?.first ? new Date(row.first).getTime() : undefined;
}

/** One-time passwords of the lock reported used by `at` (a successful password open of their slot after they were created). */
async function usedOnce(tx: Executor, lockId: number, at: Date): Promise<Set<number>> {
  const rows = await tx.select({ id: credentials.id }).from(credentials).where(and(eq(credentials.lockId, lockId), eq(credentials.oneTime, true),
    sql`exists (select 1 from ${openRecords} o where o.lock_id = ${credentials.lockId} and o.method = 'password' and o.success and o.slot = ${credentials.slot}
      and o.lock_time >= ${credentials.createdAt} and o.lock_time <= ${at.toISOString()}::timestamptz)`));
  return new Set(rows.map((row) => row.id));
}

/** Who can open the lock at `at` (default now), and why the others cannot. */
export async function whoCanOpen(tx: Executor, ref: { lockId?: number; imei?: string; at?: string }) {
  const lock = await findLock(tx, ref);
  const at = ref.at ? new Date(ref.at) : new Date();
  const page = await selectCredentials(tx, and(eq(credentials.lockId, lock.id), sql`${credentials.syncState} not in ('adding', 'add_failed')`));
  const users = await accessUsers(tx, lock.id, at);
  const used = await usedOnce(tx, lock.id, at);
  const holidays = await heldHolidays(tx, lock.id);
  const records: CredentialRecord[] = [];
  const refused: { record: CredentialRecord; reason: NonNullable<ReturnType<typeof refusal>> }[] = [];
  function refusal(record: CredentialRecord) {
    const user = record.lockUserId === null ? undefined : users.get(record.lockUserId);
    const decision = decideAccess({
      at: at.getTime(), via: 'local', holidays, user,
      credential: { validFrom: time(record.validFrom), validTo: time(record.validTo), used: used.has(record.id) },
    });
    return decision.allowed ? null : decision.reason;
  }
  for (const record of page.records) {
    const reason = refusal(record);
    if (reason === null) records.push(record);
    else refused.push({ record, reason });
  }
  return { lockId: lock.id, imei: lock.imei, at: at.toISOString(), operatingMode: holidayState(holidays, at.getTime()).operatingMode, records, refused };
}
