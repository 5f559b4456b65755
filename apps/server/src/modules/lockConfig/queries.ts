/**
 * 门锁配置 queries: locks with their reported configuration, reachability and pending commands. Run in
 * the tenant's transaction.
 */
import { type LockConfigRecord, type Page, protocol } from '@iot/contract';
import { asc, count, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { commands, locks } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { nextWakeSql, onlineSql } from '../lockDevice/repo.js';
import { lockKeyword, roomSql } from '../lockDevice/sql.js';

/** A page of locks (by id) with config, reachability and the number of commands not final. */
export async function listLockConfigs(tx: Tx, keyword: string | undefined, current: number, size: number): Promise<Page<LockConfigRecord>> {
  const where = keyword ? lockKeyword(keyword) : undefined;
  // Qualified by hand: drizzle renders a column of a single-table select unqualified ("id" would mean c.id).
  const pending = sql<number>`(select count(*) from ${commands} c where c.lock_id = "locks"."id"
    and c.state not in (${sql.join(protocol.FINAL_COMMAND_STATES.map((state) => sql`${state}`), sql`, `)}))`.mapWith(Number);
  const [total] = await tx.select({ n: count() }).from(locks).where(where);
  const rows = await tx.select({
    id: locks.id, imei: locks.imei, name: locks.name, room: roomSql, model: locks.model, alwaysOnline: locks.alwaysOnline,
    heartbeatIntervalS: locks.heartbeatIntervalS, online: onlineSql, lastUplinkAt: locks.lastUplinkAt, config: locks.config,
    nextWakeAt: nextWakeSql, pending,
  }).from(locks).where(where).orderBy(asc(locks.id)).limit(size).offset((current - 1) * size);
  const records = rows.map((row) => ({
    ...row,
    config: protocol.lockConfig.safeParse(row.config).data ?? null,
    lastUplinkAt: iso(row.lastUplinkAt),
    nextWakeAt: iso(row.nextWakeAt),
  }));
  return { records, total: total?.n ?? 0, current, size };
}
