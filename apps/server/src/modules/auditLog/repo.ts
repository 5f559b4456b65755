/**
 * System-log rows (系统日志). Callers pass only non-secret facts: no passwords, tokens or credential digits.
 */
import type { Page, AuditLogFilter, AuditLogRecord } from '@iot/contract';
import { and, count, desc, eq, gt, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { containsPattern, iso, sortOrder } from '../../db/sql.js';
import { auditLog } from '../../db/schema.js';

export interface AuditEntry {
  tenantId: number | null;
  accountId: number | null;
  username: string;
  /** e.g. `sign-in`, `sign-out`, `POST /v1/sysRole/add`. */
  action: string;
  target?: string;
  /** `success` or an error code. */
  result: string;
  clientIp: string;
  detail?: Record<string, unknown>;
  /** The target object's name and an edit's changed fields (modules/auditLog/targets.ts). */
  targetName?: string | null;
  changes?: Record<string, [unknown, unknown]> | null;
}

/** Appends one row to the system log. */
export async function insertAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ ...entry, target: entry.target ?? '', detail: entry.detail ?? null, targetName: entry.targetName ?? null, changes: entry.changes ?? null });
}

/**
 * Failed sign-ins (INVALID_CREDENTIALS, or TWO_FACTOR_INVALID at the second step or at a step-up)
 * within the last `windowS` seconds: of the username, of the address, of both.
 */
export async function signInFailures(db: Executor, username: string, clientIp: string, windowS: number) {
  const failed = and(sql`${auditLog.action} in ('sign-in', 'step-up')`, sql`${auditLog.result} in ('INVALID_CREDENTIALS', 'TWO_FACTOR_INVALID')`, gt(auditLog.createdAt, sql`now() - make_interval(secs => ${windowS})`));
  const [row] = await db.select({
    username: sql<number>`count(*) filter (where ${auditLog.username} = ${username})`.mapWith(Number),
    address: sql<number>`count(*) filter (where ${auditLog.clientIp} = ${clientIp})`.mapWith(Number),
    pair: sql<number>`count(*) filter (where ${auditLog.username} = ${username} and ${auditLog.clientIp} = ${clientIp})`.mapWith(Number),
  }).from(auditLog).where(and(failed, or(eq(auditLog.username, username), eq(auditLog.clientIp, clientIp))));
  return { username: row?.username ?? 0, address: row?.address ?? 0, pair: row?.pair ?? 0 };
}

function whereOf(filter: AuditLogFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword);
    conditions.push(or(ilike(auditLog.username, pattern), ilike(auditLog.action, pattern), ilike(auditLog.target, pattern)) as SQL);
  }
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.result) conditions.push(eq(auditLog.result, filter.result));
  if (filter.startTime) conditions.push(gte(auditLog.createdAt, new Date(filter.startTime)));
  if (filter.endTime) conditions.push(lte(auditLog.createdAt, new Date(filter.endTime)));
  return conditions.length ? and(...conditions) : undefined;
}

const recordColumns = {
  id: auditLog.id, username: auditLog.username, action: auditLog.action, target: auditLog.target,
  result: auditLog.result, clientIp: auditLog.clientIp, createdAt: auditLog.createdAt, detail: auditLog.detail,
  targetName: auditLog.targetName, changes: auditLog.changes,
};

function toRecord(row: { createdAt: Date; detail: unknown; changes: unknown } & Omit<AuditLogRecord, 'createdAt' | 'detail' | 'changes'>): AuditLogRecord {
  return { ...row, createdAt: iso(row.createdAt), detail: (row.detail as AuditLogRecord['detail']) ?? null, changes: (row.changes as AuditLogRecord['changes']) ?? null };
}

/**
 * The order of a system-log page or export: newest first by time (ids do not follow time: the demo's
 * history is written after the first rows), unless the filter sorts by a AUDIT_LOG_SORT_FIELDS column.
 */
const orderOf = (filter: AuditLogFilter) => sortOrder(filter, {
  createdAt: auditLog.createdAt, username: auditLog.username, action: auditLog.action, result: auditLog.result,
}, auditLog.id, [desc(auditLog.createdAt), desc(auditLog.id)]);

/** A page of the tenant's system log (run in the tenant transaction), in orderOf's order. */
export async function listAudit(tx: Tx, filter: AuditLogFilter, current: number, size: number): Promise<Page<AuditLogRecord>> {
  const where = whereOf(filter);
  const [totalRow] = await tx.select({ n: count() }).from(auditLog).where(where);
  const rows = await tx.select(recordColumns).from(auditLog).where(where).orderBy(...orderOf(filter)).limit(size).offset((current - 1) * size);
  return { records: rows.map(toRecord), total: totalRow?.n ?? 0, current, size };
}

/** At most `limit` rows of the tenant's system log matching `filter` (tenant transaction), in orderOf's order. */
export async function exportAudit(tx: Tx, filter: AuditLogFilter, limit: number): Promise<AuditLogRecord[]> {
  const rows = await tx.select(recordColumns).from(auditLog).where(whereOf(filter)).orderBy(...orderOf(filter)).limit(limit);
  return rows.map(toRecord);
}

/** Past system-log rows for the demo's lived-in history (demo/history/); createdAt ms since epoch. */
export async function insertAuditHistory(db: Executor, entries: readonly (AuditEntry & { createdAt: number })[]): Promise<void> {
  for (let start = 0; start < entries.length; start += 1000) {
    await db.insert(auditLog).values(entries.slice(start, start + 1000).map((entry) => ({
      ...entry, target: entry.target ?? '', detail: entry.detail ?? null, targetName: entry.targetName ?? null, changes: entry.changes ?? null, createdAt: new Date(entry.createdAt),
    })));
  }
}
