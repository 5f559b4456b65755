/**
 * System-log rows (系统日志). Callers pass only non-secret facts: no passwords, tokens or credential digits.
 */
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
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
}

/** Appends one row to the system log. */
export async function insertAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ ...entry, target: entry.target ?? '', detail: entry.detail ?? null });
}

/** Number of `action` rows of `username` with `result` within the last `windowS` seconds. */
export async function countRecent(db: Executor, username: string, action: string, result: string, windowS: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(
      eq(auditLog.username, username), eq(auditLog.action, action), eq(auditLog.result, result),
      gt(auditLog.createdAt, sql`now() - make_interval(secs => ${windowS})`),
    ));
  return row?.n ?? 0;
}
