/**
 * Command queries for the API (下发日志, one lock's queue). Run inside a tenant transaction (row-level
 * security confines them to the tenant). Secret fields are masked in every record.
 */
import { type COMMAND_SORT_FIELDS, type CommandRecord, type Page, protocol, type SortRequest } from '@iot/contract';
import { and, asc, desc, eq, gte, inArray, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { commands, locks } from '../../db/schema.js';
import { iso, sortOrder } from '../../db/sql.js';
import { cappedCount } from '../../db/count.js';
import { lockKeyword, roomSql } from '../lockDevice/sql.js';
import { masked } from './secrets.js';

/** Columns of a command row joined with its lock. */
export const commandColumns = {
  id: commands.id, msgId: commands.msgId, lockId: commands.lockId, imei: locks.imei, lockName: locks.name, room: roomSql,
  type: commands.type, data: commands.data, state: commands.state, attempts: commands.attempts, maxAttempts: commands.maxAttempts,
  createdBy: commands.createdBy, createdAt: commands.createdAt, expiresAt: commands.expiresAt, sentAt: commands.sentAt,
  deliveredAt: commands.deliveredAt, completedAt: commands.completedAt, resultCode: commands.resultCode,
  resultDetail: commands.resultDetail, resultSlot: commands.resultSlot,
};
type CommandRow = { [K in keyof typeof commandColumns]: unknown } & { data: unknown; createdAt: Date; expiresAt: Date };

/** API record of a row (secrets masked, times ISO 8601 UTC). */
export function toRecord(row: CommandRow): CommandRecord {
  return {
    ...(row as unknown as CommandRecord),
    data: masked(row.data as Record<string, unknown>),
    createdAt: iso(row.createdAt) as string,
    expiresAt: iso(row.expiresAt) as string,
    sentAt: iso(row.sentAt as Date | null),
    deliveredAt: iso(row.deliveredAt as Date | null),
    completedAt: iso(row.completedAt as Date | null),
  };
}

export interface CommandFilter extends SortRequest<(typeof COMMAND_SORT_FIELDS)[number]> {
  keyword?: string;
  type?: protocol.DownlinkType;
  state?: protocol.CommandState;
  startTime?: string;
  endTime?: string;
}

/** A page of commands, newest first unless the filter sorts by a COMMAND_SORT_FIELDS column; the total capped (db/count.ts). */
export async function listCommands(tx: Executor, filter: CommandFilter, current: number, size: number): Promise<Page<CommandRecord>> {
  const conditions: SQL[] = [];
  if (filter.keyword) conditions.push(lockKeyword(filter.keyword));
  if (filter.type) conditions.push(eq(commands.type, filter.type));
  if (filter.state) conditions.push(eq(commands.state, filter.state));
  if (filter.startTime) conditions.push(gte(commands.createdAt, new Date(filter.startTime)));
  if (filter.endTime) conditions.push(lte(commands.createdAt, new Date(filter.endTime)));
  const where = conditions.length ? and(...conditions) : undefined;
  const total = await cappedCount(tx, tx.select({ one: sql`1` }).from(commands).innerJoin(locks, eq(locks.id, commands.lockId)).where(where));
  const rows = await tx.select(commandColumns).from(commands).innerJoin(locks, eq(locks.id, commands.lockId))
    .where(where).orderBy(...sortOrder(filter, { createdAt: commands.createdAt, completedAt: commands.completedAt }, commands.id, [desc(commands.createdAt), desc(commands.id)]))
    .limit(size).offset((current - 1) * size);
  return { records: rows.map(toRecord), ...total, current, size };
}

/** One command with its lock, or undefined (also for another tenant's id). */
export async function findCommand(tx: Executor, id: number): Promise<(CommandRecord & { rawData: Record<string, unknown> }) | undefined> {
  const [row] = await tx.select(commandColumns).from(commands).innerJoin(locks, eq(locks.id, commands.lockId)).where(eq(commands.id, id));
  return row ? { ...toRecord(row), rawData: row.data as Record<string, unknown> } : undefined;
}

/** A lock's commands not final (oldest first) followed by its `recent` newest final ones. */
export async function lockCommands(tx: Executor, lockId: number, recent = 10): Promise<CommandRecord[]> {
  const finals = [...protocol.FINAL_COMMAND_STATES];
  const open = await tx.select(commandColumns).from(commands).innerJoin(locks, eq(locks.id, commands.lockId))
    .where(and(eq(commands.lockId, lockId), notInArray(commands.state, finals))).orderBy(asc(commands.id));
  const done = await tx.select(commandColumns).from(commands).innerJoin(locks, eq(locks.id, commands.lockId))
    .where(and(eq(commands.lockId, lockId), inArray(commands.state, finals))).orderBy(desc(commands.id)).limit(recent);
  return [...open, ...done].map(toRecord);
}
