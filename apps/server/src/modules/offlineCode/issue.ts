/**
 * Offline codes (contract api/offlineCode.ts; table `offline_codes`, owned here): computes a
 * lock's code for a window from the lock's offline-code key (derived from the platform's master key,
 * crypto/secret-box.ts masterKeyFor, and the lock's id and IMEI) and records who issued it for whom.
 * No downlink: the lock checks the code itself, asleep or not. The code is returned once; the row keeps
 * only its HMAC under the lock's key. Every function takes the caller's tenant transaction.
 */
import { LOCK_UTC_OFFSET_MINUTES, type OfflineCodeIssueBody, type OfflineCodeIssued, type OfflineCodeRecord } from '@iot/contract';
import { deriveOfflineCodeKey, offlineCode, offlineWindowBounds } from '@iot/contract/offline-code';
import { createHmac } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks, offlineCodes } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { ApiError, conflictError } from '../../http/api-error.js';
import { timeZoneOf } from '../tenant/settings.js';
import { codeWindow } from './window.js';

/** Who issues: tenant, account name and the platform's master key (32 bytes). */
export interface OfflineCodeActor {
  tenantId: number;
  username: string;
  masterKey: Buffer;
}

const columns = {
  id: offlineCodes.id, lockId: offlineCodes.lockId, lockName: locks.name, kind: offlineCodes.kind, recipientName: offlineCodes.recipientName,
  recipientMobile: offlineCodes.recipientMobile, issuedBy: offlineCodes.issuedBy, issuedAt: offlineCodes.issuedAt, validFrom: offlineCodes.validFrom,
  validTo: offlineCodes.validTo, fromHour: offlineCodes.fromHour, toHour: offlineCodes.toHour,
};
type Row = Awaited<ReturnType<typeof select>>[number];
const select = (tx: Executor) => tx.select(columns).from(offlineCodes).innerJoin(locks, eq(locks.id, offlineCodes.lockId));

const record = (row: Row): OfflineCodeRecord => ({
  ...row, kind: row.kind as OfflineCodeRecord['kind'], issuedAt: iso(row.issuedAt), validFrom: iso(row.validFrom), validTo: iso(row.validTo),
});

/**
 * Issues a code for `body.lockId` (any lock of the tenant that is not decommissioned, sleeping or not):
 * 404 outside the tenant or decommissioned; 400 on window fields (window.ts); 409 on body.window when
 * this lock was given the very same window before (it would be the same code).
 */
export async function issueOfflineCode(tx: Executor, actor: OfflineCodeActor, body: OfflineCodeIssueBody, now = Date.now()): Promise<OfflineCodeIssued> {
  const [lock] = await tx.select({ imei: locks.imei }).from(locks)
    .where(and(eq(locks.id, body.lockId), eq(locks.tenantId, actor.tenantId), isNull(locks.decommissionedAt)));
  if (!lock) throw new ApiError('NOT_FOUND');
  const window = codeWindow(body.window, await timeZoneOf(tx, actor.tenantId), now);
  const key = deriveOfflineCodeKey(actor.masterKey, body.lockId, lock.imei);
  const code = offlineCode(key, window);
  const codeDigest = createHmac('sha256', key).update(code).digest('hex');
  const [taken] = await tx.select({ id: offlineCodes.id }).from(offlineCodes).where(and(eq(offlineCodes.lockId, body.lockId), eq(offlineCodes.codeDigest, codeDigest)));
  if (taken) throw conflictError('body.window', '该门锁已签发过相同时段的离线密码（密码会相同），请调整开始时间', 'This lock was issued a code for this very window already (it would be the same code); shift the start');
  const { validFrom, validTo } = offlineWindowBounds(window, LOCK_UTC_OFFSET_MINUTES);
  const daily = window.kind === 'daily' ? window : undefined;
  const [row] = await tx.insert(offlineCodes).values({
    tenantId: actor.tenantId, lockId: body.lockId, kind: window.kind, recipientName: body.recipientName, recipientMobile: body.recipientMobile,
    issuedBy: actor.username, validFrom: new Date(validFrom), validTo: new Date(validTo), fromHour: daily?.fromHour ?? null, toHour: daily?.toHour ?? null, codeDigest,
  }).returning({ id: offlineCodes.id });
  const [issued] = await select(tx).where(eq(offlineCodes.id, row?.id as number));
  return { ...record(issued as Row), code };
}

/** The tenant's issued codes, newest first (at most 500), optionally of one lock; never the codes. */
export async function listOfflineCodes(tx: Executor, tenantId: number, lockId?: number): Promise<OfflineCodeRecord[]> {
  const rows = await select(tx).where(and(eq(offlineCodes.tenantId, tenantId), lockId === undefined ? undefined : eq(offlineCodes.lockId, lockId)))
    .orderBy(desc(offlineCodes.id)).limit(500);
  return rows.map(record);
}
