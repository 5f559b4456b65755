/**
 * Service periods of locks (docs/service-periods.md): `locks.service_end_at`, moved by paid
 * orders (modules/billing) and read wherever a lock is shown or commanded. This module owns the column.
 *
 * After the end date a lock refuses what grants access or changes it remotely (adding or modifying
 * lock users and credentials, unfreezing, configuration pushes, remote unlocks: 402 SERVICE_EXPIRED); it always keeps
 * what safety needs: uplinks, alarms and unlock records are received and shown, credentials can be
 * deleted, users frozen, the clock synchronised and the lock registered or unregistered. A lock never
 * covered by a package (null) is not restricted.
 */
import type { protocol, ServiceSummary } from '@iot/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { iso } from '../../db/sql.js';

/** SQL boolean: the lock's service period has ended. */
export const serviceExpiredSql = sql<boolean>`coalesce(${locks.serviceEndAt} <= now(), false)`;

const GRANTING_ACTIONS = new Set(['add', 'modify', 'unfreeze']);

/** True when a command of `type` with `data` is refused once the lock's service has ended. */
export function refusedAfterServiceEnd(type: protocol.DownlinkType, data: unknown): boolean {
  if (type === 'configPush' || type === 'remoteUnlock') return true;
  const action = (data as { action?: unknown } | null)?.action;
  return typeof action === 'string' && GRANTING_ACTIONS.has(action) && type !== 'registerDevice';
}

/** Adds `months` to each lock's service end (from now when it has ended or was never set). Returns the locks changed. */
export async function extendService(tx: Executor, tenantId: number, lockIds: readonly number[], months: number): Promise<number> {
  if (lockIds.length === 0) return 0;
  const changed = await tx.update(locks)
    .set({ serviceEndAt: sql`greatest(coalesce(${locks.serviceEndAt}, now()), now()) + make_interval(months => ${months})` })
    .where(and(inArray(locks.id, [...lockIds]), sql`${locks.tenantId} = ${tenantId}`)).returning({ id: locks.id });
  return changed.length;
}

/** Takes `months` back from each lock's service end (a fully refunded order). */
export async function revokeService(tx: Executor, tenantId: number, lockIds: readonly number[], months: number): Promise<void> {
  if (lockIds.length === 0) return;
  await tx.update(locks).set({ serviceEndAt: sql`${locks.serviceEndAt} - make_interval(months => ${months})` })
    .where(and(inArray(locks.id, [...lockIds]), sql`${locks.tenantId} = ${tenantId}`, isNotNull(locks.serviceEndAt)));
}

/**
 * Demo service periods (DEMO=on, idempotent: only locks never covered): the last four simulated
 * NB-IoT locks of data centre 100 ended 3 days ago and end in 12 hours, 5 and 25 days (the 30/7/1-day
 * warnings); every other simulated lock has 6 to 12 months left, the always-online ones too (they
 * show remote unlock, which a past service end refuses).
 */
export async function seedDemoServicePeriods(db: Executor): Promise<void> {
  const rows = await db.select({ id: locks.id, tenantId: locks.tenantId }).from(locks)
    .where(and(eq(locks.simulated, true), isNull(locks.serviceEndAt))).orderBy(asc(locks.alwaysOnline), desc(locks.id));
  const soon = [-3, 0.5, 5, 25];
  let ending = 0;
  for (const [index, row] of rows.entries()) {
    const days = row.tenantId === 100 && ending < soon.length ? (soon[ending++] as number) : 180 + ((index * 37) % 185);
    await db.update(locks).set({ serviceEndAt: sql`now() + make_interval(secs => ${Math.round(days * 86_400)})` }).where(eq(locks.id, row.id));
  }
}

/** The tenant's locks ending within 30 days or ended (run in the tenant's transaction). */
export async function serviceSummary(tx: Executor): Promise<ServiceSummary> {
  const soon = sql`${locks.serviceEndAt} <= now() + interval '30 days'`;
  const [counts] = await tx.select({
    expired: sql<number>`count(*) filter (where ${locks.serviceEndAt} <= now())`.mapWith(Number),
    within1: sql<number>`count(*) filter (where ${locks.serviceEndAt} > now() and ${locks.serviceEndAt} <= now() + interval '1 day')`.mapWith(Number),
    within7: sql<number>`count(*) filter (where ${locks.serviceEndAt} > now() and ${locks.serviceEndAt} <= now() + interval '7 days')`.mapWith(Number),
    within30: sql<number>`count(*) filter (where ${locks.serviceEndAt} > now() and ${locks.serviceEndAt} <= now() + interval '30 days')`.mapWith(Number),
  }).from(locks).where(soon);
  const rows = await tx.select({ id: locks.id, imei: locks.imei, name: locks.name, serviceEndAt: locks.serviceEndAt })
    .from(locks).where(soon).orderBy(asc(locks.serviceEndAt), asc(locks.id)).limit(50);
  return {
    expired: counts?.expired ?? 0, within1: counts?.within1 ?? 0, within7: counts?.within7 ?? 0, within30: counts?.within30 ?? 0,
    locks: rows.map((row) => ({ ...row, serviceEndAt: iso(row.serviceEndAt as Date) })),
  };
}
